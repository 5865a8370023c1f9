// `mcp hosts`, `mcp hosts pool <host>`, `mcp hosts unpool <host>` as a user runs them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mcp, sandboxes } from "./helpers.js";

const { box, removeAll } = sandboxes();
afterAll(removeAll);

const USER = `// my servers
{
\t"mcpServers": {
\t\t"files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": { "TOKEN": "s3cret" } },
\t\t"linear": { "url": "https://mcp.linear.app/sse" }
\t}
}
`;
const PROJECT = `{
  "mcpServers": {
    "local": { "command": "node", "args": ["server.js"] }
  }
}
`;

describe("mcp hosts", () => {
  it("lists, pools and unpools a host's user and project files byte for byte; refuses an unknown host", async () => {
    const b = box();
    const user = b.write(join(b.home, ".cursor", "mcp.json"), USER);
    const project = b.write(join(b.project, ".cursor", "mcp.json"), PROJECT);

    const listed = await mcp(b, ["hosts"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/cursor\s+project\s+\.cursor\/mcp\.json\s+not pooled\s+local/);
    expect(listed.stdout).toMatch(/cursor\s+user\s+~\/\.cursor\/mcp\.json\s+not pooled\s+files/);

    const pooled = await mcp(b, ["hosts", "pool", "cursor"]);
    expect(pooled.code, pooled.stderr).toBe(0);
    expect(pooled.stdout).toMatch(/~\/\.cursor\/mcp\.json: pooled files/);
    expect(pooled.stdout).toMatch(/\.cursor\/mcp\.json: pooled local/);
    const text = readFileSync(user, "utf8");
    expect(text).toContain(
      `"command": "mcp", "args": ["daemon", "stdio", "files", "--from", "cursor:user", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": { "TOKEN": "s3cret" } }`,
    );
    expect(text).toContain(`"linear": { "url": "https://mcp.linear.app/sse" }`);
    // The secret stays in env, never in argv.
    expect(text.match(/s3cret/g)).toHaveLength(1);

    const json = JSON.parse((await mcp(b, ["hosts", "list", "cursor", "--json"])).stdout) as {
      scope: string;
      pooled: string[];
      backup: boolean;
    }[];
    expect(json.map((r) => [r.scope, r.pooled, r.backup])).toEqual([
      ["project", ["local"], true],
      ["user", ["files"], true],
    ]);

    expect((await mcp(b, ["hosts", "pool", "cursor"])).stdout).toMatch(/already pooled \(files\)/);
    expect(readFileSync(user, "utf8")).toBe(text);

    const unpooled = await mcp(b, ["hosts", "unpool", "cursor", "--scope", "user"]);
    expect(unpooled.code, unpooled.stderr).toBe(0);
    expect(readFileSync(user, "utf8")).toBe(USER);
    expect(readFileSync(project, "utf8")).not.toBe(PROJECT);

    // The project file edited since: unpool refuses and says what to do, and --keep-edits keeps the edit.
    writeFileSync(project, readFileSync(project, "utf8").replace("{\n", "{\n  // mine\n"));
    const refused = await mcp(b, ["hosts", "unpool", "cursor"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/changed since `mcp hosts pool` wrote it.*mcp hosts unpool cursor --keep-edits/s);
    expect((await mcp(b, ["hosts", "unpool", "cursor", "--keep-edits"])).code).toBe(0);
    expect(readFileSync(project, "utf8")).toBe(PROJECT.replace("{\n", "{\n  // mine\n"));

    const unknown = await mcp(b, ["hosts", "pool", "emacs"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown host "emacs"; one of: claude-code/);
  });
});
