// Skills (SEP-2640) against the official SDK v2's skills extension, in both protocol eras. The
// tampering servers publish the SDK's honest entries and change the content underneath.
import { SKILL_FILES, startV2SkillsServer, type SkillTamper, type V2SkillsServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { parseSkillMarkdown } from "../src/frontmatter.js";
import { connectToServer, disconnectServer, type MCPServerConnection } from "../src/index.js";
import {
  findSkill,
  getSkill,
  listSkills,
  loadSkill,
  SkillNotFoundError,
  SkillVerificationError,
  supportsSkills,
} from "../src/skills.js";

const open: MCPServerConnection[] = [];
const servers: V2SkillsServer[] = [];
afterEach(async () => {
  for (const conn of open.splice(0)) await disconnectServer(conn);
  for (const server of servers.splice(0)) await server.stop();
});
async function skillsServer(tamper?: SkillTamper): Promise<V2SkillsServer> {
  const server = await startV2SkillsServer(tamper ? { tamper } : {});
  servers.push(server);
  return server;
}
async function connect(server: V2SkillsServer, protocol?: "2025"): Promise<MCPServerConnection> {
  const conn = await connectToServer(
    "skills",
    { type: "http", url: server.url, timeout: 10_000 },
    protocol ? { protocol } : {},
  );
  open.push(conn);
  return conn;
}
const PDF = "skill://pdf-processing/SKILL.md";

describe("skills over MCP (the SDK v2's skills extension)", () => {
  for (const protocol of [undefined, "2025"] as const) {
    it(`lists without fetching a file, loads a skill verified, reads its supporting file on demand (${protocol ?? "2026-07-28"})`, async () => {
      const server = await skillsServer();
      const conn = await connect(server, protocol);
      expect(conn.era).toBe(protocol ?? "2026-07-28");
      expect(supportsSkills(conn)).toBe(true);
      const entries = await listSkills(conn);
      expect(entries.map((e) => [e.uri, e.frontmatter.name])).toEqual([
        ["skill://acme/billing/refunds/SKILL.md", "refunds"],
        [PDF, "pdf-processing"],
      ]);
      expect(server.reads).toEqual([]); // no prefetch
      const skill = await loadSkill(
        conn,
        entries.find((e) => e.uri === PDF)!,
      );
      expect(skill).toMatchObject({
        server: "skills",
        root: "skill://pdf-processing",
        markdown: SKILL_FILES["pdf-processing/SKILL.md"],
      });
      expect(skill.frontmatter).toEqual({
        name: "pdf-processing",
        description: "Extract, fill, and assemble PDF documents\n",
        license: "Apache-2.0",
        metadata: { version: "2.1.0", team: "docs" },
      });
      expect(skill.body).toContain("Fill forms as references/FORMS.md says.");
      expect(server.reads).toEqual([PDF]);
      // Relative to the skill's root, read once.
      expect((await skill.readFile("references/FORMS.md")).text).toBe("Supporting content.\n");
      expect((await skill.readFile("./references/../references/FORMS.md")).text).toBe("Supporting content.\n");
      expect(server.reads).toEqual([PDF, "skill://pdf-processing/references/FORMS.md"]);
      // A file the entry does not list is not read at all; nor is a path out of the skill.
      await expect(skill.readFile("scripts/run.sh")).rejects.toMatchObject({
        name: "SkillVerificationError",
        failure: "unlisted",
      });
      await expect(skill.readFile("../acme/billing/refunds/SKILL.md")).rejects.toMatchObject({ failure: "unlisted" });
      expect(server.reads).toHaveLength(2);
    });
  }

  it("a skill by URI alone: skills/get gives its entry, then it loads the same way; an unknown URI is the server's error", async () => {
    const server = await skillsServer();
    const conn = await connect(server);
    const entry = await getSkill(conn, "skill://acme/billing/refunds/SKILL.md");
    expect(entry.frontmatter).toEqual({ name: "refunds", description: "Process customer refunds: per policy" });
    const skill = await loadSkill(conn, "skill://acme/billing/refunds/SKILL.md");
    expect(skill.body.trim()).toBe("Refund within 30 days.");
    await expect(getSkill(conn, "skill://nope/SKILL.md")).rejects.toMatchObject({ name: "InvalidParamsError" });
  });

  for (const [tamper, failure, detail] of [
    ["digest", "digest", /its SHA-256 is not the entry's sha256:/],
    ["size", "size", /\d+ bytes, the entry says \d+/],
    ["frontmatter", "frontmatter", /its frontmatter differs from the entry's at license/],
  ] as const) {
    it(`a SKILL.md whose ${tamper} does not match its entry is refused, and nothing else of the skill is read`, async () => {
      const server = await skillsServer(tamper);
      const conn = await connect(server);
      const error = await loadSkill(conn, PDF).catch((e: unknown) => e);
      expect(SkillVerificationError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "skill_verification_failed", failure, uri: PDF });
      expect((error as Error).message).toMatch(detail);
      expect((error as Error).message).toMatch(
        /^MCP server "skills": skill:\/\/pdf-processing\/SKILL\.md failed verification/,
      );
      expect(server.reads).toEqual([PDF]);
    });
  }

  it("a supporting file changed underneath is refused when read; the loaded skill stays usable", async () => {
    const server = await skillsServer("supporting");
    const conn = await connect(server);
    const skill = await loadSkill(conn, PDF);
    await expect(skill.readFile("references/FORMS.md")).rejects.toMatchObject({
      failure: "size",
      uri: "skill://pdf-processing/references/FORMS.md",
    });
    expect(skill.markdown).toBe(SKILL_FILES["pdf-processing/SKILL.md"]);
  });

  it("a server without the extension: no skills, and no request sent", async () => {
    const { startV2HttpServer } = await import("mcp-test-utils");
    const plain = await startV2HttpServer();
    try {
      const conn = await connectToServer("plain", { type: "http", url: plain.url, timeout: 10_000 });
      open.push(conn);
      const before = plain.requests.length;
      expect(supportsSkills(conn)).toBe(false);
      await expect(listSkills(conn)).resolves.toEqual([]);
      await expect(getSkill(conn, PDF)).rejects.toMatchObject({ name: "CapabilityNotSupportedError" });
      expect(plain.requests.length).toBe(before);
    } finally {
      await plain.stop();
    }
  });
});

describe("findSkill", () => {
  it("finds a listed skill by name or as skill://<name>/SKILL.md; a name nothing lists, or two list, is a SkillNotFoundError saying what is there", async () => {
    const entries = await listSkills(await connect(await skillsServer()));
    expect(findSkill("skills", entries, "refunds").uri).toBe("skill://acme/billing/refunds/SKILL.md");
    expect(findSkill("skills", entries, "pdf-processing").uri).toBe(PDF);
    const missing = (() => {
      try {
        return findSkill("skills", entries, "nope");
      } catch (error) {
        return error;
      }
    })();
    expect(SkillNotFoundError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toBe('server "skills" lists no skill "nope" (it lists refunds, pdf-processing)');
    expect(() => findSkill("skills", [], "nope")).toThrow(/^server "skills" lists no skill "nope"$/);
    const twin = { ...entries[0]!, uri: "skill://acme/support/refunds/SKILL.md" };
    const both = [entries[0]!, twin];
    expect(() => findSkill("skills", both, "refunds")).toThrow(
      'server "skills" lists 2 skills named "refunds"; give one by URI: skill://acme/billing/refunds/SKILL.md, skill://acme/support/refunds/SKILL.md',
    );
  });
});

describe("frontmatter", () => {
  it("reads what SKILL.md frontmatter uses, and refuses what it cannot read exactly", () => {
    const md = (yaml: string): string => `---\n${yaml}\n---\nbody`;
    expect(
      parseSkillMarkdown(
        md(
          'name: a\ndescription: "quoted \\"x\\" \\u00e9"\ntags: [a, "b, c", 3]\nlist:\n  - one\n  - two: 2\n    three: true\nempty:\nn: ~\nf: 1.5e3\nkeep: |\n  line 1\n  line 2\nfold: >-\n  a\n  b\n\n  c',
        ),
      ).frontmatter,
    ).toEqual({
      name: "a",
      description: 'quoted "x" é',
      tags: ["a", "b, c", 3],
      list: ["one", { two: 2, three: true }],
      empty: null,
      n: null,
      f: 1500,
      keep: "line 1\nline 2\n",
      fold: "a b\nc",
    });
    expect(parseSkillMarkdown(md("name: x\nsq: 'it''s'\nurl: http://a.example:80/x # note")).frontmatter).toEqual({
      name: "x",
      sq: "it's",
      url: "http://a.example:80/x",
    });
    expect(() => parseSkillMarkdown("no frontmatter")).toThrow("it does not begin with YAML frontmatter (a --- line)");
    expect(() => parseSkillMarkdown("---\nname: a\n")).toThrow("its frontmatter has no closing --- line");
    expect(() => parseSkillMarkdown(md("base: &b x\nother: *b"))).toThrow(
      "line 1: anchors, aliases and tags are not read",
    );
    expect(() => parseSkillMarkdown(md("name: a\nname: b"))).toThrow('line 2: the key "name" appears twice');
    expect(() => parseSkillMarkdown(md("name: a\n  bad indent: b"))).toThrow(/line 2/);
  });
});
