// `mcp skills` and `mcp skill` against the official SDK v2's skills extension (SEP-2640).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startV2SkillsServer, type V2SkillsServer } from "mcp-test-utils";
import { mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

let box: Sandbox;
let honest: V2SkillsServer;
let tampered: V2SkillsServer;
beforeAll(async () => {
  box = sandbox();
  [honest, tampered] = await Promise.all([startV2SkillsServer(), startV2SkillsServer({ tamper: "digest" })]);
  userConfig(box, { docs: { type: "http", url: honest.url }, evil: { type: "http", url: tampered.url } });
});
afterAll(async () => {
  await Promise.all([honest.stop(), tampered.stop()]);
  box.remove();
});

describe("skills", () => {
  it("skills lists every server's skills from their listings, fetching no skill file", async () => {
    const run = await mcp(box, ["skills", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      expect.arrayContaining([
        {
          server: "docs",
          name: "pdf-processing",
          description: "Extract, fill, and assemble PDF documents\n",
          uri: "skill://pdf-processing/SKILL.md",
        },
        {
          server: "evil",
          name: "refunds",
          description: "Process customer refunds: per policy",
          uri: "skill://acme/billing/refunds/SKILL.md",
        },
      ]),
    );
    expect([...honest.reads, ...tampered.reads]).toEqual([]);
  });

  it("skill prints a verified SKILL.md under the server it came from, or one of its files; only that server starts", async () => {
    const before = tampered.requests.length;
    const run = await mcp(box, ["skill", "docs", "pdf-processing"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^# from server "docs": skill:\/\/pdf-processing\/SKILL\.md \(verified against its entry\)\n---\nname: pdf-processing/,
    );
    const file = await mcp(box, ["skill", "docs", "skill://pdf-processing/SKILL.md", "--file", "references/FORMS.md"]);
    expect(file.stdout).toContain("Supporting content.");
    expect(tampered.requests.length).toBe(before);
  });

  it("a skill that fails verification is not printed; the error says which check failed", async () => {
    const run = await mcp(box, ["skill", "evil", "pdf-processing"]);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain("Fill f0rms");
    expect(run.stderr).toContain('MCP server "evil": skill://pdf-processing/SKILL.md failed verification (digest)');
    const unknown = await mcp(box, ["skill", "docs", "nope"]);
    expect(unknown.stderr).toContain('server "docs" lists no skill "nope" (it lists refunds, pdf-processing)');
  });
});
