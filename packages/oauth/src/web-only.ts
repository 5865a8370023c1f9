// The Node-only names of `#node` where Node's modules do not exist (browsers, workers): each
// throws an OAuthError saying what to use instead. Loaded through `#node` when the "node" export
// condition does not apply.
import { OAuthError } from "./errors.js";
import type { Authorize } from "./options.js";
import type { StoredCredentials, TokenStore } from "./token-store.js";

function needsNode(what: string, instead: string): never {
  throw new OAuthError("authorization", `${what} needs Node (or Bun or Deno); ${instead}`);
}

/** Not available here: use `MemoryTokenStore`, or a `TokenStore` of your own (IndexedDB, …). */
export class FileTokenStore implements TokenStore {
  constructor(_dir?: string, _options?: unknown) {
    needsNode("FileTokenStore", "in a browser use MemoryTokenStore or a TokenStore of your own");
  }
  get(): Promise<StoredCredentials | undefined> {
    return Promise.resolve(undefined);
  }
  find(): Promise<StoredCredentials | undefined> {
    return Promise.resolve(undefined);
  }
  set(): Promise<void> {
    return Promise.resolve();
  }
  delete(): Promise<void> {
    return Promise.resolve();
  }
}

/** Not available here: use `popupAuthorize()`. */
export function loopbackAuthorize(_options: unknown): Authorize {
  return needsNode(
    "loopbackAuthorize",
    "in a browser use popupAuthorize() with a redirect page that calls completeAuthorization()",
  );
}

/** Not available here: a web app opens URLs itself. */
export function openInBrowser(_url: string): void {
  needsNode("openInBrowser", "a web app opens the URL itself");
}

/** Not available here: a browser cannot keep a client's private key secret. */
export function clientAssertion(_key: unknown, _clientId: string, _audience: string, _now?: number): string {
  return needsNode(
    "private_key_jwt (clientAssertion)",
    "a browser cannot keep a client's private key secret; use a public client (PKCE)",
  );
}

/** Not available here: use `popupAuthorize()`. */
export function pasteBackAuthorize(_options: unknown): Authorize {
  return needsNode("pasteBackAuthorize", "in a browser use popupAuthorize()");
}

/** Options of the Node-only `pasteBackAuthorize`. */
export type PasteBackOptions = unknown;
