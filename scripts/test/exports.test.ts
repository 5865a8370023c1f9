// Each package's runtime exports, pinned: adding or removing one is a decision made in review (and a
// changeset), never a side effect of moving code between files. Type-only exports are checked by
// the type checker where they are used. Reads the built packages (the test command builds first).
import { describe, expect, it } from "vitest";

const packages = ["jsonrpc", "transport-stdio", "transport-http", "oauth", "client", "manager", "lite"] as const;

async function exportsOf(name: (typeof packages)[number]): Promise<string[]> {
  const module = (await import(new URL(`../../packages/${name}/dist/index.js`, import.meta.url).href)) as Record<string, unknown>;
  return Object.keys(module).sort();
}

describe("the runtime exports of each package", () => {
  it("@mcp/jsonrpc", async () => {
    expect(await exportsOf("jsonrpc")).toMatchInlineSnapshot(`
      [
        "AbortLatch",
        "DEFAULT_REQUEST_TIMEOUT",
        "ErrorCodes",
        "HeaderMismatchError",
        "HttpError",
        "InternalRpcError",
        "InvalidConfigError",
        "InvalidMessageError",
        "InvalidParamsError",
        "InvalidRequestError",
        "JsonRpcEndpoint",
        "MODERN_ERROR_CODES",
        "McpError",
        "MessageTooLargeError",
        "MethodNotFoundError",
        "MissingClientCapabilityError",
        "NetworkError",
        "NoResponseError",
        "ParseError",
        "PendingRequests",
        "ProxyError",
        "REDACTED",
        "RequestTimeoutError",
        "ResourceNotFoundError",
        "RpcError",
        "RpcParseError",
        "SessionExpiredError",
        "TransportClosedError",
        "UnsupportedVersionError",
        "UrlElicitationRequiredError",
        "abortHandleOf",
        "bodyChunks",
        "checkTimeout",
        "classifyMessage",
        "errorCodeOf",
        "inspectCustom",
        "isCredentialHeader",
        "isJsonRpcBatch",
        "isJsonRpcErrorResponse",
        "isJsonRpcMessage",
        "isJsonRpcNotification",
        "isJsonRpcRequest",
        "isJsonRpcResponse",
        "isJsonRpcSuccessResponse",
        "isRequestId",
        "isValidTimeout",
        "jsonRpcErrorIn",
        "proxyRefusalStatus",
        "readBoundedText",
        "redactConfig",
        "redactEnv",
        "redactHeaders",
        "redactUrl",
        "timeoutProblem",
        "toError",
        "withMeta",
      ]
    `);
  });
  it("@mcp/transport-stdio", async () => {
    expect(await exportsOf("transport-stdio")).toMatchInlineSnapshot(`
      [
        "DEFAULT_INHERITED_ENV_VARS_POSIX",
        "DEFAULT_INHERITED_ENV_VARS_WINDOWS",
        "DEFAULT_NETWORK_ENV_VARS",
        "SpawnError",
        "StdioTransport",
        "buildChildEnv",
        "createStdioTransport",
        "stdioCommandProblems",
      ]
    `);
  });
  it("@mcp/transport-http", async () => {
    expect(await exportsOf("transport-http")).toMatchInlineSnapshot(`
      [
        "HttpTransport",
        "SAFE_METHODS",
        "SseEndpointError",
        "createHttpFetch",
        "createHttpTransport",
        "encodeHeaderValue",
        "headerProblem",
        "isHttpToken",
        "isReservedHeader",
        "parseHttpUrl",
        "parseProxyUrl",
      ]
    `);
  });
  it("@mcp/oauth", async () => {
    expect(await exportsOf("oauth")).toMatchInlineSnapshot(`
      [
        "FileTokenStore",
        "MemoryTokenStore",
        "OAuthError",
        "OAuthProvider",
        "authorizationResponseOf",
        "canonicalResource",
        "clientAssertion",
        "createPkce",
        "createState",
        "discover",
        "discoverAuthorizationServer",
        "discoverResourceMetadata",
        "followRedirectAuthorize",
        "loopbackAuthorize",
        "loopbackRedirectUri",
        "metadataUrls",
        "openInBrowser",
        "parseBearerChallenge",
      ]
    `);
  });
  it("@mcp/client", async () => {
    expect(await exportsOf("client")).toMatchInlineSnapshot(`
      [
        "CLIENT_VERSION",
        "CapabilityNotSupportedError",
        "ConnectionTimeoutError",
        "DEFAULT_CONNECT_TIMEOUT",
        "DISCOVER_PROBE_MS",
        "HeaderMismatchError",
        "HttpError",
        "HttpTransport",
        "InternalRpcError",
        "InvalidConfigError",
        "InvalidInitializeResultError",
        "InvalidMessageError",
        "InvalidParamsError",
        "InvalidRequestError",
        "InvalidResultError",
        "LATEST_PROTOCOL_VERSION",
        "MODERN_PROTOCOL_VERSIONS",
        "McpError",
        "MessageTooLargeError",
        "MethodNotFoundError",
        "MissingClientCapabilityError",
        "NetworkError",
        "NoResponseError",
        "NotInProtocolRevisionError",
        "OFFERED_PROTOCOL_VERSIONS",
        "PaginationError",
        "ParseError",
        "RequestTimeoutError",
        "ResourceNotFoundError",
        "RpcError",
        "RpcParseError",
        "SUPPORTED_PROTOCOL_VERSIONS",
        "SessionExpiredError",
        "SpawnError",
        "SseEndpointError",
        "StdioTransport",
        "TransportClosedError",
        "UnknownServerTypeError",
        "UnsupportedProtocolVersionError",
        "UnsupportedVersionError",
        "UrlElicitationRequiredError",
        "applyElicitationDefaults",
        "callTool",
        "capabilitiesFor",
        "complete",
        "connectToServer",
        "disconnectServer",
        "getPrompt",
        "isResourceNotFound",
        "listPrompts",
        "listResourceTemplates",
        "listResources",
        "listTools",
        "notifyRootsListChanged",
        "ping",
        "readResource",
        "roundTrip",
        "serverConfigProblems",
        "setLoggingLevel",
        "subscribe",
        "unsubscribe",
      ]
    `);
  });
  it("@mcp/manager", async () => {
    expect(await exportsOf("manager")).toMatchInlineSnapshot(`
      [
        "DEFAULT_CALLBACK_PORT",
        "DEFAULT_HEADERS_HELPER_TTL_MS",
        "DEFAULT_RECONNECT",
        "FileToolCache",
        "HeadersHelperError",
        "MCPManager",
        "OWN_FILE",
        "ServerUnavailableError",
        "TOOL_NAME_PATTERN",
        "ToolNameMap",
        "ToolUnavailableError",
        "backoffDelay",
        "defaultCacheDir",
        "defaultTokenDir",
        "headersHelperProvider",
        "isRetryableAfterReconnect",
        "loadAllMCPConfigs",
        "runHeadersHelper",
        "toolCacheKey",
        "toolNameFor",
        "userConfigDir",
      ]
    `);
  });
  it("@mcp/lite", async () => {
    expect(await exportsOf("lite")).toMatchInlineSnapshot(`
      [
        "HttpError",
        "LiteHttpError",
        "LiteParseError",
        "MessageTooLargeError",
        "NetworkError",
        "NoResponseError",
        "ParseError",
        "RequestTimeoutError",
        "callMCP",
        "parseSSE",
        "parseSSEStream",
      ]
    `);
  });
});
