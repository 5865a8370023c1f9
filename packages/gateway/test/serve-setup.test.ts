// A gateway from a command line's options (what `mcp serve` is built on): who calls (stdio, a
// generated or given bearer token, a callers file, an issuer's tokens), each wrong option an
// InvalidConfigError naming it, the /metrics token, and the node:http server that serves it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidConfigError } from "@mcp/client";
import { callerId, mcpUrl, metricsTokenFromEnv, serveCallers, servedHosts, startGatewayServer } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "gateway-serve-setup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, document: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(document));
  return path;
};
const TOKEN = "a-token-of-24-characters";

/** The InvalidConfigError `promise` rejects with: its message and field. */
async function refusal(promise: Promise<unknown>): Promise<{ message: string; field: string | undefined }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(InvalidConfigError.isInstance(error)).toBe(true);
  return { message: (error as InvalidConfigError).message, field: (error as InvalidConfigError).field };
}

describe("serveCallers", () => {
  it("over stdio: one caller with the lists, no tokens (an empty --allow allows everything)", async () => {
    const found = await serveCallers({ http: false, allow: [], deny: ["x__*"], env: {} });
    expect(found).toEqual({
      self: { id: "stdio", name: "stdio", allow: undefined, deny: ["x__*"] },
      tokens: new Map(),
      oidc: undefined,
      generatedToken: undefined,
    });
  });

  it("over HTTP with nothing said: a generated token of 32 characters, its caller the lists'", async () => {
    const found = await serveCallers({ http: true, allow: ["a__*"], env: {} });
    const token = found.generatedToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(found.tokens.get(token)).toBe(found.self);
    expect(found.self).toEqual({ id: callerId(token), name: "token", allow: ["a__*"], deny: undefined });
    expect((await serveCallers({ http: true, env: {} })).generatedToken).not.toBe(token);
  });

  it("MCP_SERVE_TOKEN is the token (not shown as generated); a short one is refused", async () => {
    const found = await serveCallers({ http: true, env: { MCP_SERVE_TOKEN: TOKEN } });
    expect([...found.tokens.keys()]).toEqual([TOKEN]);
    expect(found.generatedToken).toBeUndefined();
    expect(await refusal(serveCallers({ http: true, env: { MCP_SERVE_TOKEN: "short" } }))).toEqual({
      message: "MCP_SERVE_TOKEN must be at least 16 characters",
      field: "MCP_SERVE_TOKEN",
    });
  });

  it("a callers file names the callers: no token is generated; MCP_SERVE_TOKEN adds one", async () => {
    const callers = file("callers.json", { alice: { token: TOKEN, allow: ["crm__*"] } });
    const found = await serveCallers({ http: true, callers, env: {} });
    expect([...found.tokens].map(([token, caller]) => [token, caller.name, caller.allow])).toEqual([
      [TOKEN, "alice", ["crm__*"]],
    ]);
    expect(found.generatedToken).toBeUndefined();
    const both = await serveCallers({ http: true, callers, env: { MCP_SERVE_TOKEN: "another-token-of-24-chars" } });
    expect([...both.tokens.values()].map((caller) => caller.name)).toEqual(["alice", "token"]);
  });

  it("a missing callers file is the error reading it", async () => {
    await expect(serveCallers({ http: true, callers: join(dir, "none.json"), env: {} })).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("an issuer: the audience is this server's /mcp URL with --port; claim rules from the callers file", async () => {
    const callers = file("claims.json", { admins: { claim: { groups: "admins" }, allow: ["*"] } });
    const found = await serveCallers({
      http: true,
      callers,
      host: "::1",
      port: 8123,
      oidcIssuer: "https://issuer.example",
      requiredScope: ["mcp"],
      env: {},
    });
    expect(found.oidc).toMatchObject({
      issuer: "https://issuer.example",
      audience: "http://[::1]:8123/mcp",
      requiredScopes: ["mcp"],
      rules: [{ claim: "groups", value: "admins" }],
    });
    // Signing in through the issuer needs no token of ours.
    expect(found.tokens.size).toBe(0);
    expect(found.generatedToken).toBeUndefined();
  });

  it("an issuer without rules: every valid token is a caller with the lists; introspection's secret from the environment", async () => {
    const found = await serveCallers({
      http: true,
      oidcIssuer: "https://issuer.example",
      audience: "https://mcp.example/mcp",
      deny: ["x__*"],
      introspectionClient: "gw",
      introspectionSecretEnv: "GW_SECRET",
      env: { GW_SECRET: "s3cret" },
    });
    expect(found.oidc).toMatchObject({
      audience: "https://mcp.example/mcp",
      defaults: { allow: undefined, deny: ["x__*"] },
      introspection: { clientId: "gw", clientSecret: "s3cret" },
    });
  });

  it("refuses options that go together when one is missing, naming them", async () => {
    const issuer = { http: true, oidcIssuer: "https://issuer.example", env: {} };
    expect(await refusal(serveCallers({ http: true, audience: "https://a.example/mcp", env: {} }))).toEqual({
      message: "--audience, --required-scope and --introspection-client go with --oidc-issuer",
      field: "oidcIssuer",
    });
    const claims = file("claims-only.json", { admins: { claim: { groups: "admins" } } });
    expect(await refusal(serveCallers({ http: true, callers: claims, env: {} }))).toEqual({
      message: `${claims}: callers chosen by a "claim" need --oidc-issuer`,
      field: "oidcIssuer",
    });
    expect(await refusal(serveCallers(issuer))).toEqual({
      message: "--oidc-issuer needs --audience (the URL callers reach this server's /mcp at) or --port",
      field: "audience",
    });
    expect(await refusal(serveCallers({ ...issuer, port: 1, introspectionClient: "gw" }))).toEqual({
      message: "--introspection-client gw needs its secret in $MCP_INTROSPECTION_SECRET",
      field: "MCP_INTROSPECTION_SECRET",
    });
    expect(await refusal(serveCallers({ ...issuer, port: 1, introspectionSecretEnv: "GW_SECRET" }))).toEqual({
      message: "--introspection-secret-env goes with --introspection-client",
      field: "introspectionSecretEnv",
    });
  });
});

describe("the URL, the Host names and the /metrics token", () => {
  it("brackets an IPv6 address", () => {
    expect(mcpUrl("127.0.0.1", 80)).toBe("http://127.0.0.1:80/mcp");
    expect(mcpUrl("::1", 80)).toBe("http://[::1]:80/mcp");
    expect(servedHosts("::1", ["mcp.example"])).toEqual(["[::1]", "mcp.example"]);
    expect(servedHosts("[::1]")).toEqual(["[::1]"]);
  });

  it("MCP_METRICS_TOKEN: none (or empty) is undefined, a short one refused", async () => {
    expect(metricsTokenFromEnv({})).toBeUndefined();
    expect(metricsTokenFromEnv({ MCP_METRICS_TOKEN: "" })).toBeUndefined();
    expect(metricsTokenFromEnv({ MCP_METRICS_TOKEN: TOKEN })).toBe(TOKEN);
    expect(
      await refusal(new Promise((resolve) => resolve(metricsTokenFromEnv({ MCP_METRICS_TOKEN: "short" })))),
    ).toEqual({ message: "MCP_METRICS_TOKEN must be at least 16 characters", field: "MCP_METRICS_TOKEN" });
  });
});

describe("startGatewayServer", () => {
  it("serves the handler on a free loopback port, and closes with its connections", async () => {
    const seen: string[] = [];
    const served = await startGatewayServer({
      handle: (req, res) => {
        seen.push(`${req.method} ${req.url}`);
        res.end("ok");
      },
    });
    expect(served.url).toBe(`http://127.0.0.1:${served.port}/mcp`);
    const answer = await fetch(served.url, { method: "POST" });
    expect(await answer.text()).toBe("ok");
    expect(seen).toEqual(["POST /mcp"]);
    await served.close();
    expect(served.server.listening).toBe(false);
  });

  it("rejects with the listening error when the port is taken", async () => {
    const first = await startGatewayServer({ handle: (_req, res) => res.end() });
    await expect(startGatewayServer({ handle: () => undefined }, { port: first.port })).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
    await first.close();
  });
});
