// A stdio server on the official SDK v2: `node sdk-v2-stdio.js [serve|reject]` (2025 era served or refused).
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { buildV2Server } from "./sdk-v2.js";

const legacy = process.argv[2] === "reject" ? "reject" : "serve";
serveStdio(() => buildV2Server(), { legacy });
