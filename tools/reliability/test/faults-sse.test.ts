// The fault matrix over HTTP+SSE (2024-11-05) (rows: matrix.ts; the table: docs/reliability.md).
import { faultMatrix, type Row } from "./matrix.js";

const rows: Row[] = [
  { fault: "exit", outcome: { error: "TransportClosedError" }, state: "failed", okAfter: false },
  { fault: "hang", outcome: { error: "RequestTimeoutError" }, state: "connected", okAfter: true },
  { fault: "wrong-id", outcome: { error: "RequestTimeoutError" }, state: "connected", okAfter: true },
  { fault: "garbage", outcome: { text: "after garbage" }, reported: "ParseError", state: "connected", okAfter: true },
  { fault: "non-utf8", outcome: { text: "after non-utf8" }, reported: "ParseError", state: "connected", okAfter: true },
  {
    fault: "truncated",
    outcome: { error: "RequestTimeoutError" },
    reported: "ParseError",
    state: "connected",
    okAfter: true,
  },
  {
    fault: "oversize",
    outcome: { error: "TransportClosedError", message: /HTTP\+SSE stream broke/ },
    reported: "MessageTooLargeError",
    state: "connected",
    okAfter: true,
  },
  {
    fault: "sse-torn-event",
    outcome: { error: "TransportClosedError", message: /HTTP\+SSE stream/ },
    state: "connected",
    okAfter: true,
  },
  { fault: "reset", outcome: { error: "NetworkError" }, state: "connected", okAfter: true },
  { fault: "5xx", outcome: { error: "HttpError", message: /503/ }, state: "connected", okAfter: true },
  { fault: "401", outcome: { error: "OAuthError", message: /needs authorization/ }, state: "connected", okAfter: true },
  { fault: "slow-drip", outcome: { text: "" }, state: "connected", okAfter: true, timeout: 15_000 },
  { fault: "flood", outcome: { text: "after flood" }, state: "connected", okAfter: true, logs: 10_000 },
  { fault: "server-request", outcome: { text: "client answered -32601" }, state: "connected", okAfter: true },
  {
    fault: "init-then-silent",
    outcome: { error: "RequestTimeoutError" },
    state: "failed",
    okAfter: false,
    connectError: /^tools\/list: Request timeout after 5000ms$/,
  },
];

faultMatrix("sse", "HTTP+SSE", rows);
