// A web app signing in to an MCP server protected by OAuth: discovery, dynamic registration, PKCE
// (WebCrypto) and the token exchange run in the page; the user step is a popup that comes back to
// the app's own callback page (callback.ts). Credentials stay in memory (MemoryTokenStore, the
// default); a `TokenStore` of your own could keep them in IndexedDB.
import { callTool, connectToServer, disconnectServer, type CallToolResult } from "@mcp/client";
import { OAuthProvider, popupAuthorize } from "@mcp/oauth";

/** Signs in to `url`, calls `tool`, and returns its text and how the sign-in went. */
export async function signInAndCall(url: string, tool: string): Promise<{ text: string; authorizations: number }> {
  let authorizations = 0;
  const authorize = popupAuthorize({ timeoutMs: 20_000 });
  const authProvider = new OAuthProvider({
    serverUrl: url,
    redirectUri: new URL("/callback", location.href).href,
    clientName: "mcp-web-example",
    authorize: (request) => {
      authorizations++;
      return authorize(request);
    },
  });
  const connection = await connectToServer("protected", { type: "http", url, authProvider, timeout: 30_000 });
  try {
    const result: CallToolResult = await callTool(connection, tool, {});
    const block = result.content.find((b) => b.type === "text");
    return { text: typeof block?.["text"] === "string" ? block["text"] : "", authorizations };
  } finally {
    await disconnectServer(connection);
  }
}
