// attachParamsFor: what a shim sends the pool for the entry it found, from a real config file in a temp folder.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { attachParamsFor } from "../src/client.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-attach-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("attachParamsFor", () => {
  it("writes this shell's folder and environment into the entry, and sends the values of the variables its files name", () => {
    const file = join(dir, ".mcp.json");
    writeFileSync(file, '{ "mcpServers": { "s": { "command": "srv", "args": ["${ARG_VAR}"], "cwd": "sub" } } }');
    const shell = { PATH: "/shell/bin", ARG_VAR: "from-shell", UNNAMED: "not sent" };
    const params = attachParamsFor(
      { config: { command: "srv", args: ["from-shell"], cwd: "sub" }, source: file, files: [file] },
      dir,
      shell,
    );
    expect(params).toEqual({
      config: expect.objectContaining({ command: "srv", args: ["from-shell"], cwd: join(dir, "sub") }),
      source: file,
      project: dir,
      vars: { ARG_VAR: "from-shell" },
    });
    expect((params.config as { parentEnv?: Record<string, string> }).parentEnv).toMatchObject({ PATH: "/shell/bin" });
    expect((params.config as { parentEnv?: Record<string, string> }).parentEnv).not.toHaveProperty("UNNAMED");
  });
});
