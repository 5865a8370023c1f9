// mcp registry search | add | outdated | update, as a user runs them, against a stand-in for the MCP
// registry on 127.0.0.1 (mcp-test-utils' startRegistry: its v0.1 read paths) serving real server.json
// documents from the registry repository's examples (credited in tools/test-utils/src/registry-examples.ts).
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  everythingEntry,
  everythingVersion,
  registryExamples as ex,
  REGISTRY_EXAMPLES,
  startProxy,
  startRegistry,
  type StandInRegistry,
} from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandboxes, type Sandbox } from "./helpers.js";

const { box, removeAll } = sandboxes();
const registries: StandInRegistry[] = [];
async function standIn(...args: Parameters<typeof startRegistry>): Promise<StandInRegistry> {
  const registry = await startRegistry(...args);
  registries.push(registry);
  return registry;
}
afterAll(async () => {
  removeAll();
  await Promise.all(registries.map((r) => r.close()));
});

let registry: StandInRegistry;
beforeAll(async () => {
  registry = await standIn();
});
const at = (): Record<string, string> => ({ MCP_REGISTRY_URL: registry.url });

/**
 * An entry added from the registry runs `npx -y @modelcontextprotocol/server-everything@<version>`,
 * which would download the package from npm. So that the tests stay offline, an `npx` put first on
 * PATH runs the copy this repository installed instead — and only for exactly those arguments.
 * Returns the PATH to run with.
 */
function npxStandIn(b: Sandbox, version: string): string {
  const shims = join(b.home, "shims");
  mkdirSync(shims, { recursive: true });
  const npx = join(shims, "npx");
  writeFileSync(
    npx,
    `#!${process.execPath}
const given = process.argv.slice(2);
if (given.length !== 2 || given[0] !== "-y" || given[1] !== ${JSON.stringify(`@modelcontextprotocol/server-everything@${version}`)}) {
  process.stderr.write("npx stand-in: unexpected arguments " + JSON.stringify(given) + "\\n");
  process.exit(1);
}
process.argv.splice(2, 2);
import(${JSON.stringify(pathToFileURL(everythingEntry).href)});
`,
  );
  chmodSync(npx, 0o755);
  return `${shims}${delimiter}${b.env["PATH"]}`;
}
const projectFile = (b: Sandbox): Record<string, any> =>
  JSON.parse(readFileSync(join(b.project, "mcp-client.json"), "utf8"));

describe("mcp registry search", () => {
  const b = box();

  it("a table of name, latest version, what it runs on and description, from every page; deprecated and deleted servers say so", async () => {
    const before = registry.requests.length;
    const run = await mcp(b, ["registry", "search"], at());
    expect(run.code).toBe(0);
    expect(registry.requests.length - before).toBe(3); // 13 servers, the stand-in's pages hold 5
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/NAME\s+VERSION\s+RUNS ON\s+STATUS\s+DESCRIPTION/);
    expect(lines).toHaveLength(14);
    expect(lines).toContainEqual(
      expect.stringMatching(/io\.github\.joelverhagen\/knapcode-samplemcpserver\s+0\.5\.0\s+nuget\s+Sample NuGet/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/io\.github\.modelcontextprotocol\/filesystem\s+1\.0\.2\s+npm, oci\s+Filesystem: /),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/io\.github\.example\/weather-mcp\s+0\.5\.0\s+pypi\s+Weather: /),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/io\.github\.user\/remote-weather\s+2\.1\.0\s+remote\s+Remote Weather: /),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /io\.modelcontextprotocol\.anonymous\/mcp-fs\s+2\.0\.0\s+remote\s+deprecated\s+Cloud-hosted/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/embedded-mcp\s+0\.1\.0\s+deleted\s+MCP server embedded/));
    expect(run.stderr).toContain(`13 servers from ${registry.url}`);
  });

  it("--limit stops following pages; --json prints those documents whole", async () => {
    const before = registry.requests.length;
    const run = await mcp(b, ["registry", "search", "--limit", "3", "--json"], at());
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { server: unknown; _meta: Record<string, any> }[];
    expect(printed.map((e) => e.server)).toEqual([ex.braveSearch, ex.everything, ex.knapcode]);
    expect(printed[0]!._meta["io.modelcontextprotocol.registry/official"]).toMatchObject({
      status: "active",
      isLatest: true,
    });
    expect(registry.requests.length - before).toBe(1);
    const text = await mcp(b, ["registry", "search", "weather", "--limit", "1"], at());
    expect(text.stdout).toContain("io.github.example/weather-mcp");
    expect(text.stdout).not.toContain("local-weather");
    expect(text.stderr).toContain("1 server from");
    expect(text.stderr).toContain("(--limit 1 reached; there may be more)");
  });

  it("the registry is the user's choice: their own file's, never a project file's", async () => {
    const other = box();
    const evil = await standIn();
    other.write(join(other.project, "mcp-client.json"), { registry: evil.url, servers: {} });
    other.write(join(other.home, ".config", "mcp-client", "mcp-client.json"), { registry: registry.url, servers: {} });
    const run = await mcp(other, ["registry", "search", "everything", "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { server: { name: string } }[]).map((e) => e.server.name)).toEqual([
      "io.modelcontextprotocol/everything",
    ]);
    expect(evil.requests).toHaveLength(0);
  });
});

describe("the way to the registry", () => {
  it("goes through HTTP_PROXY, as servers' requests do", async () => {
    const proxy = await startProxy();
    try {
      const run = await mcp(box(), ["registry", "search", "everything", "--json"], { ...at(), HTTP_PROXY: proxy.url });
      expect(run.code).toBe(0);
      expect(proxy.log).toEqual([`GET ${registry.url}/v0.1/servers?search=everything&limit=100&version=latest`]);
    } finally {
      await proxy.stop();
    }
  });
});

describe("mcp registry add", () => {
  it("writes the entry as config add does, approves it, and says which variables to set, required first", async () => {
    const b = box();
    const run = await mcp(
      b,
      ["registry", "add", ex.databaseManager.name, "--set", "db_type=postgres", "--set", "DB_USERNAME=app"],
      at(),
    );
    expect(run.code).toBe(0);
    const entry = projectFile(b).servers["database-manager"];
    expect(entry).toEqual({
      command: "docker",
      args: [
        "run",
        "-i",
        "--rm",
        "--network",
        "host",
        "-e",
        "DB_TYPE=postgres",
        "-e",
        "DB_USERNAME",
        "-e",
        "DB_PASSWORD",
        "-e",
        "SSL_MODE",
        "docker.io/example/database-manager-mcp:3.1.0",
        "--host",
        "localhost",
        "${DATABASE_MANAGER_DATABASE_NAME}",
      ],
      env: { DB_USERNAME: "app", DB_PASSWORD: "${DB_PASSWORD}", SSL_MODE: "prefer" },
      registry: {
        name: ex.databaseManager.name,
        version: "3.1.0",
        url: registry.url,
        package: "oci",
        values: { db_type: "postgres", DB_USERNAME: "app" },
      },
    });
    const out = run.stdout.split("\n");
    expect(out[0]).toBe(
      `Added "database-manager" to ${join(b.project, "mcp-client.json")}: ${ex.databaseManager.name} 3.1.0 (oci) from ${registry.url}`,
    );
    expect(out).toContainEqual(expect.stringContaining("runs  docker run -i --rm --network host -e DB_TYPE=postgres"));
    const toSet = out.slice(
      out.findIndex((l) => l.includes("Set in the environment")) + 1,
      out.findIndex((l) => l.includes("Left out")),
    );
    expect(toSet.map((l) => l.trim().split(/\s+/)[0])).toEqual(["DATABASE_MANAGER_DATABASE_NAME", "DB_PASSWORD"]);
    expect(out.slice(out.findIndex((l) => l.includes("Left out")) + 1).join("\n")).toContain("DATABASE_MANAGER_PORT");
    // Not loadable until DB_PASSWORD is set: it says how to approve it then.
    expect(run.stderr).toContain('"database-manager" is not approved yet');
    expect(run.stderr).toContain("mcp config approve database-manager");
  });

  it("a secret given as a value is refused and nothing is written; a form we cannot run lists what there is", async () => {
    const b = box();
    const secret = await mcp(
      b,
      ["registry", "add", ex.remoteWeather.name, "--set", "Authorization=Bearer hunter2"],
      at(),
    );
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain(
      "header Authorization is a secret: it is never written to a config file. Set REMOTE_WEATHER_AUTHORIZATION in the environment instead",
    );
    const mcpb = await mcp(b, ["registry", "add", ex.textEditor.name], at());
    expect(mcpb.code).toBe(2);
    expect(mcpb.stderr).toContain(
      "no package we can run; it offers mcpb. We run npm, pypi, oci, nuget packages and remotes",
    );
    const pypi = await mcp(b, ["registry", "add", ex.braveSearch.name, "--package", "pypi"], at());
    expect(pypi.stderr).toContain("no pypi package; it offers npm.");
    expect(() => readFileSync(join(b.project, "mcp-client.json"))).toThrow();
  });

  it("an unknown name is an error that names the registry it asked", async () => {
    const run = await mcp(box(), ["registry", "add", "io.github.nobody/nothing"], at());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: the registry ${registry.url} has no server named "io.github.nobody/nothing"\n`);
  });

  it("a deprecated or deleted server is refused without --force", async () => {
    const b = box();
    const refused = await mcp(b, ["registry", "add", ex.mcpFs.name], at());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`is deprecated in ${registry.url}; add it anyway with --force`);
    expect((await mcp(b, ["registry", "add", ex.embedded.name], at())).stderr).toContain("is deleted in");
    const forced = await mcp(b, ["registry", "add", ex.mcpFs.name, "--force", "--scope", "user"], at());
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain("is deprecated in the registry; added because of --force");
    const user = JSON.parse(readFileSync(join(b.home, ".config", "mcp-client", "mcp-client.json"), "utf8"));
    expect(user.servers["mcp-fs"]).toMatchObject({
      type: "http",
      url: "https://mcp-fs.anonymous.modelcontextprotocol.io/http",
    });
  });

  it("a remote: URL variables filled, the secret header a reference, and an existing name is not overwritten", async () => {
    const b = box();
    const run = await mcp(
      b,
      ["registry", "add", `${ex.remoteWeather.name}@2.1.0`, "--as", "wx", "--set", "host=eu.weather.example"],
      at(),
    );
    expect(run.code).toBe(0);
    expect(projectFile(b).servers.wx).toMatchObject({
      type: "http",
      url: "https://eu.weather.example/mcp",
      headers: { Authorization: "${WX_AUTHORIZATION}" },
    });
    expect(run.stdout).toContain("WX_AUTHORIZATION  required, secret  header Authorization");
    const again = await mcp(b, ["registry", "add", ex.remoteWeather.name, "--as", "wx"], at());
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already has a server named "wx"');
  });

  it("adds the real server-everything from the stand-in, approved, and a tool is called through the entry it wrote", async () => {
    const b = box();
    const env = { ...at(), PATH: npxStandIn(b, everythingVersion) };
    const added = await mcp(b, ["registry", "add", ex.everything.name, "--as", "ev"], env);
    expect(added.code).toBe(0);
    expect(added.stderr).toBe("");
    expect(projectFile(b).servers.ev).toEqual({
      command: "npx",
      args: ["-y", `@modelcontextprotocol/server-everything@${everythingVersion}`],
      registry: { name: ex.everything.name, version: everythingVersion, url: registry.url, package: "npm" },
    });
    // No --yes: the project entry the user added is approved as it is.
    const called = await mcp(b, ["call", "ev.echo", "message=from the registry"], env);
    expect(called.stderr).not.toContain("Skipped");
    expect(called.code).toBe(0);
    expect(called.stdout).toContain("from the registry");
  });
});

describe("mcp registry outdated and update", () => {
  it("show and apply a newer version, keeping the user's own settings and values", async () => {
    const b = box();
    const local = await standIn({
      servers: REGISTRY_EXAMPLES.filter(
        (e) => e.server["name"] === ex.weather.name || e.server["name"] === ex.knapcode.name,
      ),
    });
    const env = { MCP_REGISTRY_URL: local.url };
    expect((await mcp(b, ["registry", "add", ex.weather.name, "--as", "wx"], env)).code).toBe(0);
    expect((await mcp(b, ["registry", "add", `${ex.knapcode.name}@0.4.0-beta`, "--as", "knap"], env)).code).toBe(0);
    // The user's own edits: a value and a setting.
    const file = join(b.project, "mcp-client.json");
    const doc = projectFile(b);
    doc.servers.wx.env.WEATHER_UNITS = "fahrenheit";
    doc.servers.wx.timeout = 5000;
    writeFileSync(file, JSON.stringify(doc, null, 2));

    let outdated = await mcp(b, ["registry", "outdated", "--json"], env);
    expect(outdated.code).toBe(0);
    expect(JSON.parse(outdated.stdout)).toEqual([
      expect.objectContaining({ name: "wx", current: "0.5.0", latest: "0.5.0", outdated: false }),
      expect.objectContaining({ name: "knap", current: "0.4.0-beta", latest: "0.5.0", outdated: true }),
    ]);
    // A new version of the weather server, with one more variable.
    local.publish({
      ...ex.weather,
      version: "0.6.0",
      packages: [
        {
          ...ex.weather.packages[0],
          version: "0.6.0",
          environmentVariables: [
            ...ex.weather.packages[0]!.environmentVariables,
            { name: "WEATHER_CACHE_DIR", isRequired: true },
          ],
        },
      ],
    });
    outdated = await mcp(b, ["registry", "outdated"], env);
    expect(outdated.stdout).toMatch(/wx\s+io\.github\.example\/weather-mcp\s+0\.5\.0\s+0\.6\.0/);
    expect(outdated.stderr).toContain("2 can be updated: mcp registry update wx knap");

    const updated = await mcp(b, ["registry", "update", "wx"], env);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain('Updated "wx" (io.github.example/weather-mcp)');
    expect(updated.stdout).toContain("0.5.0 → 0.6.0");
    expect(updated.stdout).toContain("WEATHER_CACHE_DIR  required");
    const after = projectFile(b).servers;
    expect(after.wx).toEqual({
      command: "uvx",
      args: ["weather-mcp-server==0.6.0"],
      env: {
        WEATHER_API_KEY: "${WEATHER_API_KEY}",
        WEATHER_UNITS: "fahrenheit",
        WEATHER_CACHE_DIR: "${WEATHER_CACHE_DIR}",
      },
      timeout: 5000,
      registry: { name: ex.weather.name, version: "0.6.0", url: local.url, package: "pypi" },
    });
    expect(after.knap.registry.version).toBe("0.4.0-beta");

    // A latest version that is deprecated is not taken without --force.
    local.setStatus(ex.knapcode.name, "0.5.0", "deprecated");
    const refused = await mcp(b, ["registry", "update"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `its latest version, 0.5.0, is deprecated in ${local.url}; not updated (update anyway with --force)`,
    );
    expect(projectFile(b).servers.knap.args).toEqual([
      "Knapcode.SampleMcpServer@0.4.0-beta",
      "--yes",
      "--",
      "mcp",
      "start",
    ]);
    const forced = await mcp(b, ["registry", "update", "knap", "--force"], env);
    expect(forced.code).toBe(0);
    expect(projectFile(b).servers.knap).toMatchObject({
      args: ["Knapcode.SampleMcpServer@0.5.0", "--yes"],
      registry: { version: "0.5.0" },
    });
    expect((await mcp(b, ["registry", "update", "nope"], env)).stderr).toContain(
      'no entry named "nope" came from the registry',
    );

    // A value given for an input the next version no longer has is dropped, and said so.
    expect(
      (await mcp(b, ["registry", "add", ex.weather.name, "--as", "wx2", "--set", "WEATHER_UNITS=kelvin"], env)).code,
    ).toBe(0);
    local.publish({
      ...ex.weather,
      version: "0.7.0",
      packages: [
        {
          ...ex.weather.packages[0],
          version: "0.7.0",
          environmentVariables: [ex.weather.packages[0]!.environmentVariables[0]],
        },
      ],
    });
    const dropped = await mcp(b, ["registry", "update", "wx2"], env);
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain(
      '"wx2" (io.github.example/weather-mcp): 0.7.0 has no input named WEATHER_UNITS; that value was dropped',
    );
    expect(projectFile(b).servers.wx2).toEqual({
      command: "uvx",
      args: ["weather-mcp-server==0.7.0"],
      env: { WEATHER_API_KEY: "${WEATHER_API_KEY}" },
      registry: { name: ex.weather.name, version: "0.7.0", url: local.url, package: "pypi" },
    });
  });

  it("an entry an approved project server had stays approved once updated; a project file's entry is asked about only at the user's registry", async () => {
    const b = box();
    const local = await standIn({
      servers: [
        {
          server: {
            ...ex.everything,
            version: "1.0.0",
            packages: [{ ...ex.everything.packages[0], version: "1.0.0" }],
          },
        },
      ],
    });
    const env = { MCP_REGISTRY_URL: local.url, PATH: npxStandIn(b, "1.0.1") };
    expect((await mcp(b, ["registry", "add", ex.everything.name, "--as", "ev"], env)).code).toBe(0);
    local.publish({
      ...ex.everything,
      version: "1.0.1",
      packages: [{ ...ex.everything.packages[0], version: "1.0.1" }],
    });
    const updated = await mcp(b, ["registry", "update"], env);
    expect(updated.code).toBe(0);
    expect(updated.stderr).toBe("");
    // Approved as it is now (1.0.1): it starts without --yes.
    const called = await mcp(b, ["call", "ev.echo", "message=still approved"], env);
    expect(called.stderr).not.toContain("Skipped");
    expect(called.stdout).toContain("still approved");

    // A repository's file that names another registry for its entry: that registry is never asked.
    const evil = await standIn();
    const doc = projectFile(b);
    doc.servers.ev.registry.url = evil.url;
    writeFileSync(join(b.project, "mcp-client.json"), JSON.stringify(doc));
    const outdated = await mcp(b, ["registry", "outdated"], env);
    expect(outdated.code).toBe(1);
    expect(outdated.stderr).toContain(
      `ev: not checked: it names the registry ${evil.url}, not the one you use (${local.url}); to ask that one: --registry ${evil.url}`,
    );
    expect((await mcp(b, ["registry", "update"], env)).code).toBe(1);
    expect(evil.requests).toHaveLength(0);
  });
});
