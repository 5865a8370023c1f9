// `mcp serve` for a platform team: --audit (and an audit pipe that closes), rate limits shared by two
// replicas through a real redis-server, views from the config file, --tool-search.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startRedis, type TestRedis } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userConfig } from "./helpers.js";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";
import { caller2025, probeBox, tokenOf, type ProbeBox } from "./trust-helpers.js";

const MODERN = "2026-07-28";

/** A raw 2026-07-28 tools/call: its HTTP status and JSON-RPC answer. */
async function call(
  url: string,
  name: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{
  status: number;
  retryAfter: string | null;
  body: { result?: unknown; error?: { code: number; message: string } };
}> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${tokenOf(name)}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": tool,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: tool, arguments: args, _meta: meta },
    }),
  });
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5))
        .pop() ?? "{}");
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: JSON.parse(json) as { error?: { code: number; message: string } },
  };
}

describe("mcp serve --audit", () => {
  let probes: ProbeBox;
  beforeAll(async () => void (probes = await probeBox()), 60_000);
  afterAll(async () => probes?.stop());

  it("writes one JSON line per request to the file, with a hash of the arguments, never them", async () => {
    const file = join(probes.box.project, "audit.jsonl");
    const serve = await startHttpServe(probes.box, ["--callers", probes.callersFile(["alice"]), "--audit", file]);
    try {
      const alice = await caller2025("alice", serve.url);
      await alice.probe("p1h", "alice:secret-words");
      await alice.close();
      await serve.stop();
      const lines = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l["method"] === "tools/call")).toMatchObject({
        caller: "alice",
        endpoint: "/mcp",
        server: "p1h",
        tool: "p1h__probe",
        decision: "allowed",
        outcome: "ok",
        argsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(readFileSync(file, "utf8")).not.toContain("secret-words");
    } finally {
      await serve.stop();
    }
  }, 60_000);

  it("an audit pipe that closes is reported once, and serving goes on", async () => {
    const serve = await startHttpServe(probes.box, ["--callers", probes.callersFile(["alice"]), "--audit", "-"]);
    try {
      // Whoever read the audit lines went away.
      serve.child.stdout!.destroy();
      const alice = await caller2025("alice", serve.url);
      for (let i = 0; i < 5; i++) expect((await alice.probe("p1h", `alice:${i}`)).secret).toBe(`alice:${i}`);
      await alice.close();
      expect(serve.stderr().match(/the audit log \(stdout\) failed/g)?.length).toBe(1);
      expect(serve.child.exitCode).toBeNull();
    } finally {
      await serve.stop();
    }
  }, 60_000);
});

describe("mcp serve: rate limits shared by two replicas on Redis", () => {
  let redis: TestRedis;
  let probes: ProbeBox;
  let replicas: HttpServe[];

  beforeAll(async () => {
    redis = await startRedis();
    probes = await probeBox();
    const file = probes.box.write(`${probes.box.project}/rated.json`, {
      bob: { token: tokenOf("bob"), rate: "2/min" },
      alice: { token: tokenOf("alice") },
    });
    const key = randomBytes(32).toString("base64");
    replicas = await Promise.all(
      [0, 1].map(() => startHttpServe(probes.box, ["--callers", file, "--redis", redis.url], { MCP_REDIS_KEY: key })),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    await probes?.stop();
    await redis?.stop();
  });

  it("the replica that did not see the earlier calls refuses the one past the rate (429, Retry-After); other callers go on", async () => {
    const [one, two] = replicas.map((r) => r.url) as [string, string];
    for (let i = 0; i < 2; i++) expect((await call(one, "bob", "p1h__flood", { count: 1 })).status).toBe(200);
    const refused = await call(two, "bob", "p1h__flood", { count: 1 });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 429, message: expect.stringContaining("2/min") });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await call(two, "alice", "p1h__flood", { count: 1 })).status).toBe(200);
  }, 60_000);
});

describe("mcp serve: views and tool search", () => {
  it("serves the config file's views, gives a caller its view, and finds tools with --tool-search", async () => {
    const probes = await probeBox();
    try {
      userConfig(probes.box, { p1h: { type: "http", url: probes.urls.p1h } });
      // `views` beside `servers` in our own config file.
      const path = join(probes.box.home, ".config", "mcp-client", "mcp-client.json");
      const config = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
      probes.box.write(path, {
        ...config,
        views: {
          ops: {
            tools: ["p1h__flood"],
            rename: { p1h__flood: "emit_logs" },
            describe: { emit_logs: "Emits log lines for a drill" },
          },
        },
      });
      const file = probes.box.write(`${probes.box.project}/callers.json`, {
        alice: { token: tokenOf("alice") },
        oncall: { token: tokenOf("oncall"), view: "ops" },
      });
      const serve = await startHttpServe(probes.box, ["--callers", file, "--tool-search"]);
      try {
        const oncall = await caller2025("oncall", serve.url);
        expect((await oncall.list()).sort()).toEqual(["emit_logs", "search_tools"]);
        await oncall.close();
        expect((await call(serve.url, "oncall", "emit_logs", { count: 1 })).body.result).toMatchObject({
          content: [{ type: "text", text: "sent 1" }],
        });
        const found = await call(`${serve.url}/view/ops`, "alice", "search_tools", { query: "log lines drill" });
        expect(found.body.result).toMatchObject({
          structuredContent: { tools: [{ name: "emit_logs", description: "Emits log lines for a drill" }] },
        });
      } finally {
        await serve.stop();
      }
    } finally {
      await probes.stop();
    }
  }, 60_000);
});
