// installedIn and updateInstalled: entries added from the registry found in real config files, and
// one updated in place to a newer version with the user's own edits and comments kept (moved from
// the CLI's `mcp registry outdated | update`, whose end-to-end tests stay in apps/cli/test).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registryExamples as ex } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { installedIn, ownInstalled, RegistryError, updateInstalled, type RegistryEntry } from "../src/index.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});
async function folder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "mcp-registry-own-"));
  roots.push(root);
  return root;
}

const record = { name: ex.weather.name, version: "0.5.0", url: "http://127.0.0.1:1", package: "pypi" };
const PROJECT = `{
  // the team's servers
  "servers": {
    "wx": {
      "command": "uvx",
      "args": ["weather-mcp-server==0.5.0"],
      "env": { "WEATHER_API_KEY": "\${WEATHER_API_KEY}", "WEATHER_UNITS": "fahrenheit" },
      "timeout": 5000,
      "registry": ${JSON.stringify({ ...record, values: { WEATHER_UNITS: "kelvin" } })}
    },
    "mine": { "command": "node", "args": ["server.js"] }
  }
}
`;
const entryOf = (server: object): RegistryEntry => ({ server }) as RegistryEntry;

describe("installedIn", () => {
  it("the entries with a registry record, in the order of the files, each with its file and scope; a missing file has none", async () => {
    const root = await folder();
    const project = join(root, "mcp-client.json");
    const user = join(root, "user.json");
    await writeFile(project, PROJECT);
    await writeFile(
      user,
      JSON.stringify({ servers: { knap: { command: "dnx", registry: { name: "k", version: "1" } } } }),
    );
    const found = await installedIn([
      { file: project, scope: "project" },
      { file: join(root, "missing.json"), scope: "file" },
      { file: user, scope: "user" },
    ]);
    expect(found.map((i) => [i.local, i.scope, i.file, i.record.name])).toEqual([
      ["wx", "project", project, ex.weather.name],
      ["knap", "user", user, "k"],
    ]);
  });
});

describe("updateInstalled", () => {
  it("rewrites the entry in place at the new version: the user's fields, values and the file's comments kept, a value the new version has no input for dropped", async () => {
    const file = join(await folder(), "mcp-client.json");
    await writeFile(file, PROJECT);
    const [item] = await installedIn([{ file, scope: "project" }]);
    const w = ex.weather.packages[0]!;
    const latest = entryOf({
      ...ex.weather,
      version: "0.7.0",
      packages: [{ ...w, version: "0.7.0", environmentVariables: [w.environmentVariables[0]] }],
    });
    const update = await updateInstalled(item!, latest);
    expect(update.dropped).toEqual(["WEATHER_UNITS"]);
    expect(update.made.version).toBe("0.7.0");
    const text = await readFile(file, "utf8");
    expect(text).toContain("// the team's servers");
    const written = (await installedIn([{ file, scope: "project" }]))[0]!;
    expect(written.entry).toEqual({
      command: "uvx",
      args: ["weather-mcp-server==0.7.0"],
      env: { WEATHER_API_KEY: "${WEATHER_API_KEY}" },
      timeout: 5000,
      registry: { ...record, version: "0.7.0" },
    });
    expect(update.entry).toEqual(written.entry);
    expect(text).toContain('"mine": { "command": "node", "args": ["server.js"] }');
  });

  it("a new version the record's choices cannot make is a RegistryError, and the file is left as it was", async () => {
    const file = join(await folder(), "mcp-client.json");
    await writeFile(file, PROJECT);
    const [item] = await installedIn([{ file, scope: "project" }]);
    const latest = entryOf({
      ...ex.weather,
      version: "0.8.0",
      packages: [{ ...ex.weather.packages[0], registryType: "mcpb" }],
    });
    const error = await updateInstalled(item!, latest).catch((e: unknown) => e);
    expect(RegistryError.isInstance(error)).toBe(true);
    expect(await readFile(file, "utf8")).toBe(PROJECT);
  });
});

describe("ownInstalled", () => {
  it("the project's mcp-client.json (marked project) then the user's, from the user's config folder; or only the files given, from the folder", async () => {
    const root = await folder();
    const [cwd, home] = [join(root, "repo"), join(root, "home")];
    const userDir = join(home, "config", "mcp-client");
    await mkdir(cwd, { recursive: true });
    await mkdir(userDir, { recursive: true });
    await writeFile(join(cwd, "mcp-client.json"), PROJECT);
    await writeFile(
      join(userDir, "mcp-client.json"),
      JSON.stringify({ servers: { u: { command: "x", registry: record } } }),
    );
    const env = { XDG_CONFIG_HOME: join(home, "config") };
    const found = await ownInstalled({ cwd, home, env, platform: "linux" });
    expect(found.map((i) => [i.local, i.scope, i.project, i.file])).toEqual([
      ["wx", "project", true, join(cwd, "mcp-client.json")],
      ["u", "user", false, join(userDir, "mcp-client.json")],
    ]);
    const given = await ownInstalled({ cwd, home, env, platform: "linux", files: ["mcp-client.json"] });
    expect(given.map((i) => [i.local, i.scope, i.project, i.file])).toEqual([
      ["wx", "file", false, join(cwd, "mcp-client.json")],
    ]);
  });
});
