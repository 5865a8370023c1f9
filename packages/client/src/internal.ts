// `@mcp/client/internal`: what our own packages (`@mcp/manager`, the CLI) share with the client,
// outside semver: it may change in any release, and a program outside this repository must not
// import it. The main entry holds what a user of the client calls.
export { capabilitiesFor } from "./connect.js";
export { STATELESS_PROTOCOL_VERSIONS } from "./stateless.js";
export { CLIENT_VERSION } from "./version.js";
