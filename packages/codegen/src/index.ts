// @mcp/codegen: an MCP server's tools as a typed TypeScript client module.
export { clientNameOf, CodegenError, generateClient, type GenerateClientOptions } from "./generate.js";
export { clientModulePath, writeClientModule } from "./module-path.js";
