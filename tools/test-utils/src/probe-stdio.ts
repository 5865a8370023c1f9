// The probe over stdio: `node probe-stdio.js 1x` (SDK 1.x, 2025 era) or `v2` (SDK v2, 2026-07-28 only).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { buildProbe1x, buildProbeV2 } from "./probe.js";

if (process.argv[2] === "v2") serveStdio(() => buildProbeV2(), { legacy: "reject" });
else await buildProbe1x().connect(new StdioServerTransport());
