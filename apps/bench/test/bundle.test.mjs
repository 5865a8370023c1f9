// What a user who bundles the stack gets: the same esbuild settings the footprint figure uses, of
// everything @mcp/client exports, run in a child process against the bench's stdio and HTTP echo
// servers. A minifier renames classes, and error names must survive it.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { bundleCode } from "../src/footprint.mjs";

const dir = mkdtempSync(join(tmpdir(), "mcp-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stdioEcho = fileURLToPath(new URL("../src/servers/stdio-echo.mjs", import.meta.url));
const httpEcho = fileURLToPath(new URL("../src/servers/http-echo.mjs", import.meta.url));

const probe = `
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as mcp from "./bundle.mjs";
const [stdioEcho, httpEcho] = process.argv.slice(2);
const names = Object.entries(mcp).filter(([, v]) => typeof v === "function" && Object.hasOwn(v, "brand")).map(([key, v]) => [key, v.brand]);
const out = { names, errors: {} };
const server = spawn(process.execPath, [httpEcho], { stdio: ["pipe", "pipe", "inherit"] }); // it exits when stdin ends
const [port] = await once(server.stdout, "data");
const http = (path) => ({ type: "http", url: \`http://127.0.0.1:\${String(port).trim()}\${path}\`, fallbackToSse: false });
for (const [kind, config] of [["stdio", { command: process.execPath, args: [stdioEcho] }], ["json", http("/json")], ["sse", http("/sse")]]) {
  const connection = await mcp.connectToServer("echo", config);
  out[kind] = (await mcp.callTool(connection, "echo", { text: "hé" })).content[0].text;
  out.errors[kind] = await Promise.all([connection.request("nope/nope"), mcp.getPrompt(connection, "p")].map((p) => p.then(() => "resolved", (e) => e.name)));
  await mcp.disconnectServer(connection);
}
out.errors.closed = new mcp.TransportClosedError().name;
server.stdin.end();
console.log(JSON.stringify(out));
`;

describe("the minified bundle", () => {
  it("works over stdio and HTTP (JSON and SSE answers), and every error keeps its class name", async () => {
    writeFileSync(join(dir, "bundle.mjs"), await bundleCode('export * from "@mcp/client";\n'));
    writeFileSync(join(dir, "probe.mjs"), probe);
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "probe.mjs"), stdioEcho, httpEcho], {
      timeout: 30_000,
    });
    const out = JSON.parse(stdout);
    // Every error class @mcp/client exports (24 since its surface was trimmed to what users call):
    // enough that a bundle which lost them would fail here.
    expect(out.names.length).toBeGreaterThanOrEqual(20);
    for (const [exported, brand] of out.names) expect(brand).toBe(exported);
    expect(out).toMatchObject({ stdio: "hé", json: "hé", sse: "hé" });
    const both = ["MethodNotFoundError", "CapabilityNotSupportedError"];
    expect(out.errors).toEqual({ stdio: both, json: both, sse: both, closed: "TransportClosedError" });
  });
});
