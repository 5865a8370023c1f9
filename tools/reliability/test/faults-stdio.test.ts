// The fault matrix over stdio (rows: matrix.ts; the table: docs/reliability.md).
import { faultMatrix, type Row } from "./matrix.js";

const rows: Row[] = [
  {
    fault: "exit",
    outcome: { error: "TransportClosedError", message: /exit code 3|code 3/ },
    state: "connected",
    okAfter: true,
  },
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
    outcome: { error: "RequestTimeoutError" },
    reported: "MessageTooLargeError",
    state: "connected",
    okAfter: true,
  },
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

faultMatrix("stdio", "stdio", rows);
