// A registry `server.json` as a config entry: which package or remote, its arguments and secrets as `${NAME}` references.
import { serverConfigProblems, type MCPServerConfig } from "@mcp/client";
import { isHttpToken, isReservedHeader } from "@mcp/transport-http";
import { RegistryError } from "./errors.js";
import { InputFiller, type RegistryValue, type RegistryVariable } from "./inputs.js";
import type {
  RegistryArgument,
  RegistryEntry,
  RegistryKeyValueInput,
  RegistryPackage,
  RegistryRemote,
  RegistryServer,
} from "./types.js";

/** What an entry runs: a package of one of these registries, or a remote. */
export type RegistryPackageKind = "npm" | "pypi" | "oci" | "nuget" | "remote";

/** Package types we know how to run, and the program that runs each. */
const RUNNERS: Record<Exclude<RegistryPackageKind, "remote">, string> = {
  npm: "npx",
  pypi: "uvx",
  oci: "docker",
  nuget: "dnx",
};
const RUNNABLE = Object.keys(RUNNERS) as Exclude<RegistryPackageKind, "remote">[];

/** Choices for {@link configFromRegistry}. */
export interface RegistryChoices {
  /** Which form to run: a package type or `"remote"`. Default: the first package we can run, else a remote. */
  package?: RegistryPackageKind | undefined;
  /** For a remote: `"http"` (Streamable HTTP) or `"sse"`. Default: the first Streamable HTTP remote, else the first. */
  transport?: "http" | "sse" | undefined;
  /**
   * Values for the server's inputs, by name: an environment variable's or header's name, a
   * remote's URL variable, a named argument (`--port`, or `port`), a positional argument's
   * `valueHint`, a `{variable}` of a value. A list only for a repeated argument. Never a secret:
   * one is refused (`secret_value`); set it in the environment.
   */
  values?: Record<string, RegistryValue> | undefined;
  /** The entry's name, which starts the names of the references made for headers, arguments and URL variables (default: the server name's last part). */
  name?: string | undefined;
  /** Leave out `values` the server has no input for (reported in `unused`) instead of failing: for values chosen for an older version. */
  ignoreUnknownValues?: boolean | undefined;
}

/** What {@link configFromRegistry} made. */
export interface RegistryConfig {
  /** The entry: `${NAME}` references where secrets and required values go; no secret's value. */
  config: MCPServerConfig;
  kind: RegistryPackageKind;
  /** The server's version this entry runs. */
  version: string;
  /** Each variable the entry reads (`inEntry`) and each optional input it left out, required ones first. */
  variables: RegistryVariable[];
  /** For a package that serves HTTP: the command that starts it (the entry connects to it; it does not start it). */
  start?: { command: string; args: string[]; env?: Record<string, string> | undefined } | undefined;
  /** With `ignoreUnknownValues`: the names in `values` the server has no input for. */
  unused?: string[] | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(server: string, message: string): RegistryError {
  return new RegistryError("invalid_server", `"${server}": ${message}`);
}

// What a package name or version may look like: a leading `-` would be read as an option of npx,
// uvx, docker or dnx (npx's `--call` runs a shell command), so none may start with one.
const IDENTIFIERS: Record<string, RegExp> = {
  npm: /^(@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/i,
  pypi: /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  nuget: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
  oci: /^[a-z0-9][a-z0-9._/:@-]*$/i,
};
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;
const FLAG = /^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The forms a server offers: its packages' types, and `remote` when it has remotes. */
export function registryKinds(server: RegistryServer): string[] {
  const kinds = (Array.isArray(server.packages) ? server.packages : []).map((p) =>
    isObject(p) && typeof p.registryType === "string" ? p.registryType : "?",
  );
  if (Array.isArray(server.remotes) && server.remotes.length > 0) kinds.push("remote");
  return [...new Set(kinds)];
}

function choose(
  server: RegistryServer,
  choices: RegistryChoices,
): { package: RegistryPackage; index: number } | { remote: RegistryRemote; index: number } {
  const packages = Array.isArray(server.packages) ? server.packages : [];
  const remotes = Array.isArray(server.remotes) ? server.remotes : [];
  const available = registryKinds(server);
  const offers =
    available.length > 0
      ? `it offers ${available.join(", ")}`
      : `it offers no package and no remote${server.websiteUrl ? ` (see ${server.websiteUrl})` : ""}`;
  const wanted = choices.package;
  const unsupported = (why: string): RegistryError =>
    new RegistryError(
      "unsupported_package",
      `"${server.name}": ${why}; ${offers}. We run ${RUNNABLE.join(", ")} packages and remotes`,
      { available },
    );
  if (
    wanted === "remote" ||
    (wanted === undefined && !packages.some((p) => isObject(p) && (RUNNABLE as string[]).includes(p.registryType)))
  ) {
    if (remotes.length === 0) throw unsupported(wanted === "remote" ? "no remote" : "no package we can run");
    const type = choices.transport === "sse" ? "sse" : choices.transport === "http" ? "streamable-http" : undefined;
    let index = remotes.findIndex((r) => isObject(r) && r.type === (type ?? "streamable-http"));
    if (index === -1 && type === undefined) index = 0;
    if (index === -1) throw unsupported(`no ${choices.transport} remote`);
    return { remote: remotes[index]!, index };
  }
  if (wanted !== undefined && !(RUNNABLE as string[]).includes(wanted))
    throw unsupported(`we cannot run ${String(wanted)} packages`);
  const index = packages.findIndex(
    (p) =>
      isObject(p) &&
      (wanted === undefined ? (RUNNABLE as string[]).includes(p.registryType) : p.registryType === wanted),
  );
  if (index === -1) throw unsupported(`no ${String(wanted)} package`);
  return { package: packages[index]!, index };
}

/** Arguments in order, named and positional, filled. Returns the argv and each argument's value by name and `valueHint` (for URL templates). */
function argumentsOf(
  list: unknown,
  path: string,
  filler: InputFiller,
  serverName: string,
): { argv: string[]; named: Map<string, string> } {
  const argv: string[] = [];
  const named = new Map<string, string>();
  if (list === undefined) return { argv, named };
  if (!Array.isArray(list)) throw invalid(serverName, `${path} is not a list`);
  (list as unknown[]).forEach((raw, i) => {
    if (!isObject(raw)) throw invalid(serverName, `${path}[${i}] is not an object`);
    const arg = raw as unknown as RegistryArgument;
    if (arg.type !== "named" && arg.type !== "positional")
      throw invalid(serverName, `${path}[${i}].type must be "positional" or "named"`);
    const flag = arg.type === "named" ? arg.name : undefined;
    if (arg.type === "named" && (typeof flag !== "string" || !FLAG.test(flag)))
      throw invalid(serverName, `${path}[${i}].name is not a flag (--name): ${JSON.stringify(flag)}`);
    const valueHint = arg.type === "positional" && typeof arg.valueHint === "string" ? arg.valueHint : undefined;
    const hint = flag !== undefined ? flag.replace(/^-+/, "") : (valueHint ?? `arg${i + 1}`);
    const keys = flag !== undefined ? [flag, hint] : valueHint !== undefined ? [valueHint] : [];
    const label = `argument ${flag ?? hint}`;
    const given = arg.isRepeated === true ? filler.given(keys, label, true) : undefined;
    const values = Array.isArray(given)
      ? given.map((value) => filler.fill(arg, { keys, label, ref: filler.refName(hint), given: value }))
      : [filler.fill(arg, { keys, label, ref: filler.refName(hint), ...(given !== undefined ? { given } : {}) })];
    for (const value of values) {
      if (value === undefined) continue;
      if (flag !== undefined) argv.push(flag, value);
      else argv.push(value);
      named.set(flag ?? hint, value);
    }
  });
  return { argv, named };
}

/** Key-value inputs (environment variables, headers) to a map. */
function pairs(
  list: unknown,
  path: string,
  filler: InputFiller,
  serverName: string,
  kind: "env" | "header",
): Record<string, string> {
  const out: Record<string, string> = {};
  if (list === undefined) return out;
  if (!Array.isArray(list)) throw invalid(serverName, `${path} is not a list`);
  (list as unknown[]).forEach((raw, i) => {
    const input = raw as RegistryKeyValueInput;
    if (!isObject(raw) || typeof input.name !== "string")
      throw invalid(serverName, `${path}[${i}].name is not a string`);
    if (kind === "env" && !ENV_NAME.test(input.name))
      throw invalid(
        serverName,
        `${path}[${i}].name is not an environment variable name: ${JSON.stringify(input.name)}`,
      );
    if (kind === "header" && (!isHttpToken(input.name) || isReservedHeader(input.name)))
      throw invalid(serverName, `${path}[${i}].name ${JSON.stringify(input.name)} is not a header a config may set`);
    const label = kind === "env" ? `environment variable ${input.name}` : `header ${input.name}`;
    const value = filler.fill(input, {
      keys: kind === "env" ? [input.name] : [input.name, input.name.toLowerCase()],
      label,
      ref: filler.refName(input.name, kind === "env"),
    });
    if (value !== undefined) out[input.name] = value;
  });
  return out;
}

/** A copy with every `${…}` made `1` (a host, a port, a word), so the shape can be checked before the environment fills it. */
function probe(config: MCPServerConfig): unknown {
  return JSON.parse(JSON.stringify(config).replace(/\$\{[^}]*\}/g, "1")) as unknown;
}

/**
 * Turns a `server.json` (or a registry entry holding one) into one config entry: npm →
 * `npx -y <identifier>@<version>`, pypi → `uvx <identifier>==<version>`, oci → `docker run -i --rm`
 * (with `-e NAME` for each environment variable), nuget → `dnx <identifier>@<version> --yes`,
 * runtime and package arguments in order; a remote → an `http` or `sse` entry with its
 * `{variables}` filled. A package that serves HTTP gives an entry that connects to it, and the
 * command that starts it in `start`. Every secret becomes a `${NAME}` reference; nothing from the
 * registry may read the user's environment otherwise. A form we cannot run is a `RegistryError`
 * (`unsupported_package`) listing what the server offers.
 */
export function configFromRegistry(
  document: RegistryServer | RegistryEntry,
  choices: RegistryChoices = {},
): RegistryConfig {
  const server =
    isObject(document) && isObject((document as RegistryEntry).server)
      ? (document as RegistryEntry).server
      : (document as RegistryServer);
  if (!isObject(server) || typeof server.name !== "string" || typeof server.version !== "string")
    throw new RegistryError("invalid_server", "not a server.json: it needs a string name and version");
  const values = new Map(Object.entries(choices.values ?? {}));
  const filler = new InputFiller(choices.name ?? server.name.split("/").pop() ?? server.name, values);
  const chosen = choose(server, choices);
  let config: MCPServerConfig;
  let kind: RegistryPackageKind;
  let start: RegistryConfig["start"];
  const strings: [string, string][] = [];

  if ("remote" in chosen) {
    const remote = chosen.remote;
    const path = `remotes[${chosen.index}]`;
    if (typeof remote.url !== "string") throw invalid(server.name, `${path}.url is not a string`);
    if (remote.type !== "streamable-http" && remote.type !== "sse")
      throw invalid(server.name, `${path}.type ${JSON.stringify(remote.type)} is not streamable-http or sse`);
    const url = filler.template(remote.url, isObject(remote.variables) ? remote.variables : undefined, {
      label: "the URL",
      secret: false,
    });
    const headers = pairs(remote.headers, `${path}.headers`, filler, server.name, "header");
    config = {
      type: remote.type === "sse" ? "sse" : "http",
      url,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
    kind = "remote";
    strings.push(
      [url, `${path}.url`],
      ...Object.entries(headers).map(([name, value]): [string, string] => [value, `${path}.headers ${name}`]),
    );
  } else {
    const pkg = chosen.package;
    const path = `packages[${chosen.index}]`;
    kind = pkg.registryType as RegistryPackageKind;
    if (typeof pkg.identifier !== "string" || !IDENTIFIERS[kind]!.test(pkg.identifier))
      throw invalid(server.name, `${path}.identifier is not a ${kind} package name: ${JSON.stringify(pkg.identifier)}`);
    if (
      pkg.version !== undefined &&
      (typeof pkg.version !== "string" || !VERSION.test(pkg.version) || pkg.version === "latest")
    )
      throw invalid(server.name, `${path}.version is not an exact version: ${JSON.stringify(pkg.version)}`);
    if (pkg.version === undefined && kind !== "oci")
      throw invalid(server.name, `${path} has no version; only pinned versions are run`);
    const transport = isObject(pkg.transport) ? pkg.transport : { type: "stdio" as const };
    const runtime = argumentsOf(pkg.runtimeArguments, `${path}.runtimeArguments`, filler, server.name);
    const program = argumentsOf(pkg.packageArguments, `${path}.packageArguments`, filler, server.name);
    const env = pairs(pkg.environmentVariables, `${path}.environmentVariables`, filler, server.name, "env");
    let args: string[];
    if (kind === "npm") args = ["-y", ...runtime.argv, `${pkg.identifier}@${pkg.version}`, ...program.argv];
    else if (kind === "pypi") args = [...runtime.argv, `${pkg.identifier}==${pkg.version}`, ...program.argv];
    else if (kind === "nuget")
      args = [
        ...runtime.argv,
        `${pkg.identifier}@${pkg.version}`,
        "--yes",
        ...(program.argv.length > 0 ? ["--", ...program.argv] : []),
      ];
    else {
      // An image reference carries its tag or digest; an older document gave the version apart.
      const tagged =
        /@sha256:|:[^/]+$/.test(pkg.identifier) || pkg.version === undefined
          ? pkg.identifier
          : `${pkg.identifier}:${pkg.version}`;
      args = [
        "run",
        "-i",
        "--rm",
        ...runtime.argv,
        ...Object.keys(env).flatMap((name) => ["-e", name]),
        tagged,
        ...program.argv,
      ];
    }
    const command = RUNNERS[kind as Exclude<RegistryPackageKind, "remote">];
    strings.push(
      ...args.map((arg, i): [string, string] => [arg, `the command line's argument ${i + 1}`]),
      ...Object.entries(env).map(([name, value]): [string, string] => [value, `${path}.environmentVariables ${name}`]),
    );
    const envPart = Object.keys(env).length > 0 ? { env } : {};
    if (transport.type === "stdio") config = { command, args, ...envPart };
    else if ((transport.type === "streamable-http" || transport.type === "sse") && typeof transport.url === "string") {
      // `{--port}` / `{port}` / `{ENV}` in the URL name the package's own arguments and environment.
      const known = new Map([...runtime.named, ...program.named, ...Object.entries(env)]);
      const url = transport.url.replace(
        /\{([^{}]+)\}/g,
        (whole, name: string) => known.get(name) ?? known.get(`--${name}`) ?? whole,
      );
      const headers = pairs(transport.headers, `${path}.transport.headers`, filler, server.name, "header");
      config = {
        type: transport.type === "sse" ? "sse" : "http",
        url,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
      };
      start = { command, args, ...envPart };
      strings.push(
        [url, `${path}.transport.url`],
        ...Object.entries(headers).map(([name, value]): [string, string] => [
          value,
          `${path}.transport.headers ${name}`,
        ]),
      );
    } else throw invalid(server.name, `${path}.transport is not stdio, streamable-http or sse`);
  }

  for (const [text, where] of strings) filler.check(text, `"${server.name}" ${where}`);
  const unknown = [...values.keys()].filter((key) => !filler.used.has(key));
  if (unknown.length > 0 && !choices.ignoreUnknownValues) {
    const names = [...filler.variables.values()].map((v) => v.input);
    throw new RegistryError(
      "unknown_input",
      `"${server.name}" (${kind}) has no input named ${unknown.map((k) => JSON.stringify(k)).join(", ")}${names.length ? `; its inputs without a value: ${names.join(", ")}` : ""}`,
    );
  }
  const problems = serverConfigProblems(probe(config));
  if (problems.length > 0)
    throw invalid(server.name, `the entry it makes is not valid: ${problems.map((p) => p.message).join("; ")}`);
  const variables = [...filler.variables.values()].sort(
    (a, b) => Number(b.required) - Number(a.required) || Number(b.inEntry) - Number(a.inEntry),
  );
  return {
    config,
    kind,
    version: server.version,
    variables,
    ...(start ? { start } : {}),
    ...(unknown.length > 0 ? { unused: unknown } : {}),
  };
}
