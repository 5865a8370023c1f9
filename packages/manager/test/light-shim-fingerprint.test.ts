// The light shim (`mcp-shim`, the CLI's bash relay) in front of an approved entry: approved alike as
// the entry it wraps, as `mcp daemon stdio` is; a program of another name or path with the same words is not.
import { describe, expect, it } from "vitest";
import { fingerprintOf } from "../src/approvals/fingerprint.js";
import { isShimCommand, LIGHT_SHIM_COMMAND, SHIM_COMMAND } from "../src/index.js";

const original = { command: "node", args: ["server.js", "--flag"] };
const words = ["daemon", "stdio", "srv", "--from", "cursor:project", "--", "node", "server.js", "--flag"];

describe("the light shim's entries and approvals", () => {
  it("an entry run through mcp-shim or mcp has the fingerprint of the entry it wraps", () => {
    expect(isShimCommand(LIGHT_SHIM_COMMAND)).toBe(true);
    expect(isShimCommand(SHIM_COMMAND)).toBe(true);
    expect(fingerprintOf({ command: LIGHT_SHIM_COMMAND, args: words }, "salt")).toEqual(
      fingerprintOf(original, "salt"),
    );
    expect(fingerprintOf({ command: SHIM_COMMAND, args: words }, "salt")).toEqual(fingerprintOf(original, "salt"));
  });

  it("a repository's own program named like it, or given by path, is not unwrapped", () => {
    for (const command of ["./mcp-shim", "/tmp/mcp-shim", "mcp-shim.sh", "bash"]) {
      expect(isShimCommand(command)).toBe(false);
      expect(fingerprintOf({ command, args: words }, "salt")).not.toEqual(fingerprintOf(original, "salt"));
    }
  });
});
