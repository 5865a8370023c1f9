// The progress-then-ask server over stdio: `node progress-ask-stdio.js` (see progress-ask.ts).
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { buildProgressAsk } from "./progress-ask.js";

serveStdio(() => buildProgressAsk(), { legacy: "serve" });
