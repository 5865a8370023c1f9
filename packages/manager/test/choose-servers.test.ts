// The servers one command runs: narrowed to the names asked for (an unknown one is a typed error
// with the closest names), project servers reviewed, the fallback only when nothing is configured
// and nothing explains why, and the command's timeout and close graces over each config. Real
// files in a temporary HOME and project.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chooseServers, createApprovalStore, NOT_APPROVED_YET, UnknownServerError } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-choose-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const repo = join(root, "repo");
const empty = join(root, "empty");
for (const dir of [home, repo, empty]) mkdirSync(dir, { recursive: true });
const file = join(root, "servers.json");
writeFileSync(
  file,
  JSON.stringify({ mcpServers: { alpha: { command: "alpha", timeout: 5 }, beta: { url: "http://127.0.0.1:9/mcp" } } }),
);
writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: "proj" } } }));
const fallback = { name: "demo", config: () => ({ command: "demo" }) };
const policy = { store: createApprovalStore({ file: join(root, "approvals.json") }) };

describe("chooseServers", () => {
  it("keeps the names asked for; an unknown name is an UnknownServerError naming the closest", async () => {
    const chosen = await chooseServers({ cwd: empty, home, files: [file], only: ["beta"] });
    expect(Object.keys(chosen.configs)).toEqual(["beta"]);
    const error = await chooseServers({ cwd: empty, home, files: [file], only: ["alpah"] }).catch((e: unknown) => e);
    expect(UnknownServerError.isInstance(error)).toBe(true);
    expect((error as UnknownServerError).code).toBe("unknown_server");
    expect((error as UnknownServerError).near).toEqual(["alpha"]);
    expect((error as Error).message).toBe('no server named "alpah"; did you mean "alpha"?');
  });

  it("lays the timeout over every config and the close graces over a stdio server", async () => {
    const { configs } = await chooseServers({ cwd: empty, home, files: [file], timeout: 7, closeGraceMs: 300 });
    expect(configs["alpha"]).toMatchObject({ command: "alpha", timeout: 7, closeGraceMs: 300, killGraceMs: 300 });
    expect(configs["beta"]).toMatchObject({ url: "http://127.0.0.1:9/mcp", timeout: 7 });
    expect(configs["beta"]).not.toHaveProperty("closeGraceMs");
  });

  it("leaves out a project server not approved, and then does not fall back", async () => {
    const chosen = await chooseServers({ cwd: repo, home, policy, fallback });
    expect(chosen.configs).toEqual({});
    expect(chosen.skipped).toEqual(["proj"]);
    expect(chosen.whySkipped.get("proj")).toBe(NOT_APPROVED_YET);
    expect(chosen.fallback).toBe(false);
  });

  it("falls back only with nothing configured and no other name asked for", async () => {
    const none = await chooseServers({ cwd: empty, home, fallback });
    expect(none.fallback).toBe(true);
    expect(none.configs).toEqual({ demo: { command: "demo" } });
    // Its own name may be asked for; another is unknown.
    expect((await chooseServers({ cwd: empty, home, fallback, only: ["demo"] })).fallback).toBe(true);
    await expect(chooseServers({ cwd: empty, home, fallback, only: ["other"] })).rejects.toThrow(UnknownServerError);
    // Without a fallback, nothing.
    expect(await chooseServers({ cwd: empty, home })).toMatchObject({ configs: {}, fallback: false });
  });
});
