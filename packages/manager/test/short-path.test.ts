// A config file as a person names it (what `mcp servers`, `mcp config list` and `mcp config doctor`
// show): relative to the project, else from `~`, else whole; with this machine's separators.
import { homedir, tmpdir } from "node:os";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { shortPath, tildify } from "../src/index.js";

const home = homedir();
const project = join(tmpdir(), "some-project");

describe("tildify and shortPath", () => {
  it("a path under the home folder from ~, the home folder itself as ~, any other whole", () => {
    expect(tildify(join(home, ".claude.json"), home)).toBe(`~${sep}.claude.json`);
    expect(tildify(home, home)).toBe("~");
    // A sibling whose name starts with the home folder's is not in it.
    expect(tildify(`${home}-other${sep}x.json`, home)).toBe(`${home}-other${sep}x.json`);
    expect(tildify(join(project, "x.json"), "")).toBe(join(project, "x.json"));
    expect(tildify(undefined, home)).toBe("");
  });

  it("a file in the project relative to it, else from ~, else whole; what is not a path kept", () => {
    expect(shortPath(join(project, ".mcp.json"), project, home)).toBe(".mcp.json");
    expect(shortPath(join(project, ".cursor", "mcp.json"), project, home)).toBe(join(".cursor", "mcp.json"));
    expect(shortPath(join(home, ".claude.json"), project, home)).toBe(`~${sep}.claude.json`);
    expect(shortPath(`${project}-other${sep}mcp.json`, project, "")).toBe(`${project}-other${sep}mcp.json`);
    expect(shortPath("(command line)", project, home)).toBe("(command line)");
    expect(shortPath(undefined, project, home)).toBe("");
  });
});
