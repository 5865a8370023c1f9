// Helpers shared by the tests and benchmarks of every package (private; never published).
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";

/** The entry script of @modelcontextprotocol/server-everything. */
export const everythingEntry: string = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` on 127.0.0.1 accepts connections; fails if `child` exits first. */
export async function waitForPort(port: number, child?: ChildProcess, ms = 15_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() - start > ms) throw new Error(`port ${port} did not open in ${ms}ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A running server-everything in an HTTP mode. */
export interface EverythingServer {
  /** `/mcp` for streamableHttp, `/sse` for sse, on 127.0.0.1. */
  url: string;
  port: number;
  stop: () => Promise<void>;
}

/**
 * Preloaded into a child server: once any server of the child is bound, it writes a line naming the
 * port it took, so a child given port 0 reports the port the system chose (nothing picks a port
 * and frees it for the child to bind later, which another process could take in between).
 */
const REPORT_PORT = `data:text/javascript,${encodeURIComponent(`import net from "node:net";
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () => { const a = this.address(); if (a && typeof a === "object") process.stderr.write("mcp-test-utils: bound port " + a.port + "\\n"); });
  return listen.apply(this, args);
};`)}`;

/**
 * Starts @modelcontextprotocol/server-everything in an HTTP mode. It reads only `PORT` (0 by
 * default here) and prints the port it was given, not the one it took, so a preload reports the
 * bound port ({@link REPORT_PORT}); that line is the barrier. It listens on all interfaces; only
 * 127.0.0.1 is ever contacted.
 */
export async function startEverything(
  mode: "streamableHttp" | "sse",
  options: { port?: number } = {},
): Promise<EverythingServer> {
  const child = spawn(process.execPath, ["--import", REPORT_PORT, everythingEntry, mode], {
    env: { ...process.env, PORT: String(options.port ?? 0) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const port = await new Promise<number | undefined>((resolve) => {
    const settle = (found: number | undefined): void => {
      clearTimeout(timer);
      resolve(found);
    };
    const timer = setTimeout(() => settle(undefined), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString();
      const bound = /^mcp-test-utils: bound port (\d+)$/m.exec(stderr);
      if (bound) settle(Number(bound[1]));
    });
    child.once("close", () => settle(undefined));
  });
  if (port === undefined) {
    child.kill("SIGKILL");
    throw new Error(`server-everything (${mode}) did not start: ${stderr.trim().slice(-2000) || "no output"}`);
  }
  return {
    url: mode === "sse" ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 4000).unref();
      }),
  };
}

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` (which may be async) every 10 ms until it is true, or fails after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `input` (text or bytes) cut at the given offsets (taken modulo its length + 1, sorted, deduplicated): a stream torn anywhere. */
export function splitAt<T extends string | Uint8Array>(input: T, cuts: number[]): T[] {
  const at = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  const out: T[] = [];
  let from = 0;
  for (const cut of [...at, input.length]) {
    out.push((typeof input === "string" ? input.slice(from, cut) : input.subarray(from, cut)) as T);
    from = cut;
  }
  return out;
}

/** The text blocks of a tool result, joined (`separator` between them). */
export function textOf(result: { content: readonly { type: string; text?: string }[] }, separator = ""): string {
  return result.content
    .map((c) => (c.type === "text" ? (c.text ?? "") : ""))
    .filter((text) => separator === "" || text !== "")
    .join(separator);
}

/** Counts of this process's active handles by kind ("Timeout", "PipeWrap", "TCPSocketWrap", …). */
export function activeHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

export { startSdkServer, type SdkServer, type SdkServerOptions } from "./sdk-server.js";
export { sideEffectServer, type SideEffectServer } from "./sdk-side-effect.js";
export { buildProbe1x, buildProbeV2, probeEvents, probeStdioEntry, type ProbeAnswer } from "./probe.js";
export { buildProgressAsk, progressAskStdioEntry } from "./progress-ask.js";
export { buildV2Server, spawnV2Stdio, startV2HttpServer, v2StdioEntry, type V2HttpServer } from "./sdk-v2.js";
export { SKILL_FILES, startV2SkillsServer, type SkillTamper, type V2SkillsServer } from "./sdk-v2-skills.js";
export { startTasksServer, type TasksServer, type TasksServerRequest } from "./tasks-server.js";
export { startSdkOAuthServer, type SdkOAuthServer } from "./sdk-oauth.js";
export { startOidcServer, type OidcServer, type OidcServerOptions } from "./oidc.js";
export { startProxy, type TestProxy, type TestProxyOptions } from "./proxy.js";
export { makeCertificates, type TestCertificates } from "./certs.js";
export { startRedis, type TestRedis } from "./redis.js";
export { checkProof, startAuthFixture, type AuthFixture, type AuthFixtureOptions } from "./auth-fixture.js";
export { startRegistry, type StandInOverride, type StandInRegistry, type StandInServer } from "./registry.js";
export { REGISTRY_EXAMPLES, everythingVersion } from "./registry-examples.js";
import * as registryExamples from "./registry-examples.js";
export { registryExamples };
export {
  bunBinary,
  EVERYTHING_BIN,
  EVERYTHING_PACKAGE,
  hostileRepository,
  installEverything,
  type HostileRepository,
} from "./hostile-repo.js";
export { PINNED_TOOLS, PinnedServer, pinnedStdioEntry, type PinnedFixtureTool } from "./pinned-stdio.js";
export { signingKey, startIdp, type IdpOptions, type PrivateJwk, type TestIdp } from "./idp.js";
