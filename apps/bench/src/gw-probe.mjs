import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { callTool, connectToServer } from "@mcp/client";
import { cli } from "./cli-paths.mjs";
const TOKEN = "bench-gateway-token-0123456789";
function start(command, args, env, ready) {
  const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  return new Promise((resolve) => child.stdout.on("data", (c) => { out += c; const line = out.split("\n").find((l) => ready.test(l)); if (line) resolve({ child, line }); }));
}
const echo = await start(process.execPath, [fileURLToPath(new URL("./servers/http-echo.mjs", import.meta.url))], process.env, /^\d+$/);
const upstream = `http://127.0.0.1:${echo.line.trim()}/json`;
const dir = mkdtempSync(join(tmpdir(), "gwp-"));
writeFileSync(join(dir, "c.json"), JSON.stringify({ servers: { up: { type: "http", url: upstream } } }));
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, ".config"), XDG_CACHE_HOME: join(dir, ".cache"), MCP_SERVE_TOKEN: TOKEN, NO_COLOR: "1" };
const gw = await start(process.execPath, [...(process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/gw"] : []), cli, "--json", "--config", join(dir, "c.json"), "serve", "--http"], env, /^\{/);
const url = `${JSON.parse(gw.line).url}/up`;
const c = await connectToServer("g", { type: "http", url, headers: { authorization: `Bearer ${TOKEN}` } });
import { readFileSync } from "node:fs";
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
for (const conc of [1, 4, 32]) {
  const end = performance.now() + 3000; let n = 0;
  const before = [cpu(gw.child.pid), cpu(echo.child.pid), cpu(process.pid)];
  await Promise.all(Array.from({ length: conc }, async () => { while (performance.now() < end) { await callTool(c, "echo", { text: "hi" }); n++; } }));
  const after = [cpu(gw.child.pid), cpu(echo.child.pid), cpu(process.pid)];
  console.log(conc, Math.round(n / 3), "calls/s", "cpu µs/call gateway, upstream, caller:", after.map((a, i) => Math.round((a - before[i]) * 1000 / n)).join(" "));
}
await c.transport.close();
gw.child.kill("SIGTERM"); echo.child.kill();
await new Promise((r) => gw.child.once("exit", r));
