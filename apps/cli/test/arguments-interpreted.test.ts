// `mcp call` checks arguments against the server's schema by interpreting it (@mcp/adapters'
// validator), never by compiling it to code: a server's schema is untrusted input. Shown in a CLI
// process where generating code from strings is refused (`--disallow-code-generation-from-strings`,
// as `eval` is in Workers and under a strict CSP): the check still runs and names each field.
import { afterAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandbox, userConfig } from "./helpers.js";

const box = sandbox();
afterAll(() => box.remove());

describe("argument checks without code generation", () => {
  it("names each bad field, with eval refused in the CLI's process", async () => {
    userConfig(box, { local: { command: process.execPath, args: [fixture] } });
    const run = await mcp(box, ["call", "local.typed", "mode=medium", "ratio=x"], {
      NODE_OPTIONS: "--disallow-code-generation-from-strings",
    });
    expect(run.stderr).toContain("invalid arguments for local.typed: ");
    expect(run.stderr).toContain('missing required argument "count"');
    expect(run.stderr).toContain('argument "mode" must be one of "fast", "slow"');
    expect(run.stderr).toContain('argument "ratio" must be number (got "x")');
    expect(run.code).toBe(2);
  });
});
