/**
 * The MCP registry's documents, typed by its schema (`server.json`, schema 2025-12-11 and the
 * draft after it, in `modelcontextprotocol/registry`: `docs/reference/server-json/`) and its read
 * API (`docs/reference/api/openapi.yaml`, v0.1). Fields a newer schema adds arrive as they were
 * sent; only what we read is listed.
 */

/** One value a server asks its user for: an environment variable, a header, an argument, a URL variable. */
export interface RegistryInput {
  description?: string | undefined;
  /** Default `false`. */
  isRequired?: boolean | undefined;
  /** `string` (default), `number`, `boolean` or `filepath`. */
  format?: string | undefined;
  /** A fixed value, which may hold `{variables}`; when set, it is not the user's to change. */
  value?: string | undefined;
  /** A password, token or key: never written to a file. Default `false`. */
  isSecret?: boolean | undefined;
  default?: string | undefined;
  placeholder?: string | undefined;
  /** The only values allowed, when given. */
  choices?: string[] | undefined;
}

/** An input whose `value` may hold `{name}` placeholders, each defined in `variables`. */
export interface RegistryInputWithVariables extends RegistryInput {
  variables?: Record<string, RegistryInput> | undefined;
}

/** An environment variable or a header: `name` is the variable's or the header's. */
export interface RegistryKeyValueInput extends RegistryInputWithVariables {
  name: string;
}

/** A value put into the command line as it is; `valueHint` names it. */
export interface RegistryPositionalArgument extends RegistryInputWithVariables {
  type: "positional";
  valueHint?: string | undefined;
  isRepeated?: boolean | undefined;
}

/** `--flag value`; `name` includes the dashes. */
export interface RegistryNamedArgument extends RegistryInputWithVariables {
  type: "named";
  name: string;
  isRepeated?: boolean | undefined;
}

/** A command-line argument of a package or its runtime, in the order given. */
export type RegistryArgument = RegistryPositionalArgument | RegistryNamedArgument;

/** How a package is spoken to once it runs: stdio, or HTTP at a URL that may name its arguments (`{--port}`). */
export type RegistryPackageTransport =
  { type: "stdio" } | { type: "streamable-http" | "sse"; url: string; headers?: RegistryKeyValueInput[] | undefined };

/** A server that is already running somewhere: its URL may hold `{variables}`. */
export interface RegistryRemote {
  type: "streamable-http" | "sse";
  url: string;
  headers?: RegistryKeyValueInput[] | undefined;
  variables?: Record<string, RegistryInput> | undefined;
}

/** One way to get and run the server locally. */
export interface RegistryPackage {
  /** `npm`, `pypi`, `oci`, `nuget`, `mcpb`, `cargo`, … */
  registryType: string;
  registryBaseUrl?: string | undefined;
  /** A package name, an image reference (`oci`, with its tag or digest) or a download URL (`mcpb`). */
  identifier: string;
  /** The exact version (never a range, never `latest`); `oci` images carry theirs in `identifier`. */
  version?: string | undefined;
  fileSha256?: string | undefined;
  /** `npx`, `uvx`, `docker`, `dnx`: a hint only. */
  runtimeHint?: string | undefined;
  transport: RegistryPackageTransport;
  /** Arguments for the runtime (`docker run …`, `npx …`), before the package. */
  runtimeArguments?: RegistryArgument[] | undefined;
  /** Arguments for the package's own program, after it. */
  packageArguments?: RegistryArgument[] | undefined;
  environmentVariables?: RegistryKeyValueInput[] | undefined;
}

/** A `server.json`: one version of one server. */
export interface RegistryServer {
  $schema?: string | undefined;
  /** Reverse-DNS, one slash: `io.github.user/weather`. */
  name: string;
  description: string;
  title?: string | undefined;
  version: string;
  websiteUrl?: string | undefined;
  repository?: { url: string; source: string; id?: string | undefined; subfolder?: string | undefined } | undefined;
  icons?:
    | { src: string; mimeType?: string | undefined; sizes?: string[] | undefined; theme?: string | undefined }[]
    | undefined;
  packages?: RegistryPackage[] | undefined;
  remotes?: RegistryRemote[] | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** A server's lifecycle in the registry. */
export type RegistryStatus = "active" | "deprecated" | "deleted";

/** What the official registry adds about an entry (`_meta["io.modelcontextprotocol.registry/official"]`). */
export interface RegistryOfficialMeta {
  status?: RegistryStatus | undefined;
  publishedAt?: string | undefined;
  updatedAt?: string | undefined;
  isLatest?: boolean | undefined;
  [key: string]: unknown;
}

/** The `_meta` key of the registry's own metadata. */
export const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

/** One server version as the API returns it: the document and the registry's metadata, both whole. */
export interface RegistryEntry {
  server: RegistryServer;
  _meta?: { [OFFICIAL_META]?: RegistryOfficialMeta | undefined; [key: string]: unknown } | undefined;
}
