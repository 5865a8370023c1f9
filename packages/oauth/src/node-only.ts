// What only Node (and Bun and Deno) can do: tokens in files, the loopback user step and the
// system browser, `private_key_jwt` signing with node:crypto. Loaded through `#node` (package.json
// "imports"); a browser or worker bundle gets web-only.ts instead, whose same names say clearly
// that they need Node.
export { FileTokenStore, type FileTokenStoreOptions } from "./storage.js";
export { loopbackAuthorize, openInBrowser, type LoopbackOptions } from "./loopback.js";
export { clientAssertion } from "./jwt.js";
export { pasteBackAuthorize, type PasteBackOptions } from "./paste-back.js";
