// The fault matrix over Streamable HTTP (rows: matrix.ts; the table: docs/reliability.md).
import { faultMatrix, type Row } from "./matrix.js";

const rows: Row[] = [
  { fault: "exit", outcome: { error: "NetworkError" }, state: "failed", okAfter: false },
  { fault: "hang", outcome: { error: "RequestTimeoutError" }, state: "connected", okAfter: true },
  {
    fault: "wrong-id",
    outcome: { error: "NoResponseError", message: /No response received for request ID/ },
    state: "connected",
    okAfter: true,
  },
  { fault: "garbage", outcome: { error: "ParseError" }, state: "connected", okAfter: true },
  { fault: "non-utf8", outcome: { error: "ParseError" }, state: "connected", okAfter: true },
  { fault: "truncated", outcome: { error: "ParseError" }, state: "connected", okAfter: true },
  { fault: "oversize", outcome: { error: "MessageTooLargeError" }, state: "connected", okAfter: true },
  { fault: "sse-torn-event", outcome: { error: "NoResponseError" }, state: "connected", okAfter: true },
  { fault: "sse-torn-response", outcome: { text: "resumed" }, state: "connected", okAfter: true },
  { fault: "reset", outcome: { error: "NetworkError" }, state: "connected", okAfter: true },
  { fault: "5xx", outcome: { error: "HttpError", message: /503/ }, state: "connected", okAfter: true },
  { fault: "401", outcome: { error: "OAuthError", message: /needs authorization/ }, state: "connected", okAfter: true },
  { fault: "session-404", outcome: { text: "ok after a new session" }, state: "connected", okAfter: true },
  { fault: "slow-drip", outcome: { text: "" }, state: "connected", okAfter: true, timeout: 15_000 },
  { fault: "flood", outcome: { text: "after flood" }, state: "connected", okAfter: true, logs: 10_000 },
  { fault: "server-request", outcome: { text: "client answered -32601" }, state: "connected", okAfter: true },
  {
    fault: "init-then-silent",
    outcome: { error: "RequestTimeoutError" },
    state: "failed",
    okAfter: false,
    connectError: /^Connection to MCP server "fault" timed out after 5000ms/,
  },
];

faultMatrix("http", "Streamable HTTP", rows);
