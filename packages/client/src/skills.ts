import { McpError, type MCPTransport, type RequestOptions } from "@mcp/jsonrpc";
import type { MCPServerConnection } from "./connect.js";
import { CapabilityNotSupportedError } from "./errors.js";
import { parseSkillMarkdown } from "./frontmatter.js";
import { paginate, readResource, type ListOptions } from "./methods.js";
import { InvalidResultError } from "./stateless.js";

// Skills served over MCP (SEP-2640, the extension `io.modelcontextprotocol/skills`): the listing,
// one entry by URI, and loading a skill with every byte checked against its entry. Nothing is
// fetched ahead of need: listing reads no file, loading reads the SKILL.md, and a supporting file
// is read when asked for.

type Connection = MCPServerConnection<MCPTransport>;

/** The extension's identifier, as servers declare it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** One file of a skill, as its entry lists it. */
export interface SkillFile {
  uri: string;
  /** `sha256:` and 64 lower-case hex digits: the file's raw bytes. */
  digest: string;
  /** The file's size in bytes, when the server says. */
  size?: number | undefined;
}

/** A skill as `skills/list` and `skills/get` describe it. */
export interface SkillEntry {
  /** The URI of its SKILL.md. */
  uri: string;
  /** Its SKILL.md frontmatter, as JSON: at least `name` and `description`. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** Every file of the skill with its digest; absent for a generated skill (which cannot be verified). */
  resources?: SkillFile[] | undefined;
}

/** A file of a loaded skill, verified against the entry. */
export interface SkillFileContent {
  uri: string;
  mimeType: string | undefined;
  /** The raw bytes. */
  bytes: Uint8Array;
  /** The bytes as UTF-8 text. */
  text: string;
}

/** A skill loaded through {@link loadSkill}: its SKILL.md verified, its other files read on demand. */
export interface LoadedSkill {
  entry: SkillEntry;
  /** The server the skill came from (the connection's name): a skill's identity is the server and the URI. */
  server: string;
  /** The skill's root, e.g. `skill://pdf-processing`: relative references resolve against it. */
  root: string;
  /** The whole SKILL.md. */
  markdown: string;
  /** Its frontmatter, parsed (equal to the entry's). */
  frontmatter: Record<string, unknown>;
  /** The SKILL.md after the frontmatter. */
  body: string;
  /**
   * Reads a file of the skill: a path relative to the root (`references/FORMS.md`) or a full
   * URI. Only files the entry lists are read, and each is verified; anything else is a
   * {@link SkillVerificationError}. A file read once is not fetched again.
   */
  readFile(path: string, options?: RequestOptions): Promise<SkillFileContent>;
}

/** Why a skill's content was refused. */
export type SkillVerificationFailure = "size" | "digest" | "frontmatter" | "unlisted" | "unverifiable";

/**
 * A skill's content is not what its entry promised (SEP-2640 "Integrity and verification"): a
 * size or digest that does not match, frontmatter that differs from the entry's, a file the
 * entry does not list, or an entry without digests. The content is not used.
 */
export class SkillVerificationError extends McpError<"skill_verification_failed"> {
  static override readonly brand: string = "SkillVerificationError";
  declare readonly uri: string;
  declare readonly failure: SkillVerificationFailure;

  constructor(serverName: string, uri: string, failure: SkillVerificationFailure, detail: string) {
    super(
      "skill_verification_failed",
      `MCP server "${serverName}": ${uri} failed verification (${failure}): ${detail}; not used`,
    );
    this.uri = uri;
    this.failure = failure;
  }
}

/**
 * No skill of a server's listing has the name asked for (`near`: the names it lists), or more than
 * one has (`ambiguous`: their URIs, one of which to ask for instead).
 */
export class SkillNotFoundError extends McpError<"skill_not_found"> {
  static override readonly brand: string = "SkillNotFoundError";
  declare readonly skill: string;
  declare readonly ambiguous: string[];

  constructor(serverName: string, skill: string, listed: readonly SkillEntry[], named: readonly SkillEntry[]) {
    super(
      "skill_not_found",
      named.length > 1
        ? `server "${serverName}" lists ${named.length} skills named "${skill}"; give one by URI: ${named.map((e) => e.uri).join(", ")}`
        : `server "${serverName}" lists no skill "${skill}"${listed.length ? ` (it lists ${listed.map((e) => e.frontmatter.name).join(", ")})` : ""}`,
    );
    this.skill = skill;
    this.ambiguous = named.length > 1 ? named.map((e) => e.uri) : [];
  }
}

/**
 * The entry of a server's listing (`listSkills`) named `skill`: by its frontmatter name, or as
 * `skill://<skill>/SKILL.md`. Two skills may share a name (`acme/billing/refunds`,
 * `acme/support/refunds`): then the URI decides, and a name is a {@link SkillNotFoundError}, as
 * is a name nothing lists.
 */
export function findSkill(serverName: string, listed: readonly SkillEntry[], skill: string): SkillEntry {
  const named = listed.filter((e) => e.frontmatter.name === skill || e.uri === `skill://${skill}/SKILL.md`);
  if (named.length !== 1) throw new SkillNotFoundError(serverName, skill, listed, named);
  return named[0]!;
}

/** True when the server declares the skills extension. */
export function supportsSkills(connection: Connection): boolean {
  const extensions = connection.capabilities["extensions"];
  return typeof extensions === "object" && extensions !== null && Object.hasOwn(extensions, SKILLS_EXTENSION);
}

/**
 * The skills the server lists (all pages). Empty, without a request, when the server does not
 * declare the extension. An empty or short listing does not mean the server has no other skills
 * ({@link getSkill} takes any URI). Entries that are not entries are left out.
 */
export async function listSkills(connection: Connection, options?: ListOptions): Promise<SkillEntry[]> {
  if (!supportsSkills(connection)) return [];
  const entries = await paginate<unknown>(connection, "skills/list", "skills", options);
  return entries.filter(isSkillEntry);
}

/** The entry of one skill by the URI of its SKILL.md, listed or not. */
export async function getSkill(connection: Connection, uri: string, options?: RequestOptions): Promise<SkillEntry> {
  if (!supportsSkills(connection))
    throw new CapabilityNotSupportedError(connection.name, `the ${SKILLS_EXTENSION} extension`, "skills/get");
  const result = await connection.request<{ skill?: unknown }>("skills/get", { uri }, options);
  if (!isSkillEntry(result.skill))
    throw new InvalidResultError(
      `MCP server "${connection.name}" answered skills/get for ${uri} without a skill entry`,
    );
  return result.skill;
}

/** Options of {@link loadSkill}. */
export interface LoadSkillOptions extends RequestOptions {
  /** Load a skill whose entry has no digests (a generated skill). Default false: such a skill is refused. */
  allowUnverified?: boolean | undefined;
}

/**
 * Loads a skill: its entry (from `skills/get` when given a URI), then its SKILL.md, checked
 * against the entry's size and digest and its frontmatter compared field by field with the
 * entry's. Any difference is a {@link SkillVerificationError} and the skill is not loaded.
 */
export async function loadSkill(
  connection: Connection,
  skill: SkillEntry | string,
  options: LoadSkillOptions = {},
): Promise<LoadedSkill> {
  const { allowUnverified = false, ...requestOptions } = options;
  const entry = typeof skill === "string" ? await getSkill(connection, skill, requestOptions) : skill;
  if (!entry.resources && !allowUnverified)
    throw new SkillVerificationError(connection.name, entry.uri, "unverifiable", "its entry lists no digests");
  const root = entry.uri.replace(/\/SKILL\.md$/, "");
  const cache = new Map<string, Promise<SkillFileContent>>();
  const read = (uri: string, readOptions?: RequestOptions): Promise<SkillFileContent> => {
    let file = cache.get(uri);
    if (!file) {
      file = readVerified(connection, entry, uri, readOptions);
      cache.set(uri, file);
      file.catch(() => cache.delete(uri)); // a failure is not remembered: the next read tries again
    }
    return file;
  };
  const skillMd = await read(entry.uri, requestOptions);
  let parsed: ReturnType<typeof parseSkillMarkdown>;
  try {
    parsed = parseSkillMarkdown(skillMd.text);
  } catch (error) {
    throw new SkillVerificationError(
      connection.name,
      entry.uri,
      "frontmatter",
      `its frontmatter cannot be read exactly: ${(error as Error).message}`,
    );
  }
  const difference = firstDifference(parsed.frontmatter, entry.frontmatter, "");
  if (difference !== undefined)
    throw new SkillVerificationError(
      connection.name,
      entry.uri,
      "frontmatter",
      `its frontmatter differs from the entry's at ${difference}`,
    );
  return {
    entry,
    server: connection.name,
    root,
    markdown: skillMd.text,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    readFile: async (path, readOptions) => read(resolveInSkill(connection.name, root, path), readOptions),
  };
}

/** `path` against the skill's root; a full URI as it is. Climbing out of the root is refused. */
function resolveInSkill(server: string, root: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined)
        throw new SkillVerificationError(server, `${root}/${path}`, "unlisted", "the path climbs out of the skill");
    } else parts.push(part);
  }
  return `${root}/${parts.join("/")}`;
}

/** Reads one file of the skill and checks it against the entry. */
async function readVerified(
  connection: Connection,
  entry: SkillEntry,
  uri: string,
  options: RequestOptions | undefined,
): Promise<SkillFileContent> {
  const listed = entry.resources?.find((file) => file.uri === uri);
  if (entry.resources && !listed)
    throw new SkillVerificationError(connection.name, uri, "unlisted", `the entry of ${entry.uri} does not list it`);
  const result = await readResource(connection, uri, options);
  const contents = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (!contents)
    throw new SkillVerificationError(connection.name, uri, "digest", "resources/read returned no contents");
  const bytes =
    "text" in contents && typeof contents.text === "string"
      ? new TextEncoder().encode(contents.text)
      : decodeBase64(connection.name, uri, "blob" in contents ? contents.blob : undefined);
  if (listed) {
    if (typeof listed.size === "number" && bytes.byteLength !== listed.size)
      throw new SkillVerificationError(
        connection.name,
        uri,
        "size",
        `${bytes.byteLength} bytes, the entry says ${listed.size}`,
      );
    const digest = `sha256:${hex(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes)))}`;
    if (digest !== listed.digest.toLowerCase())
      throw new SkillVerificationError(
        connection.name,
        uri,
        "digest",
        `its SHA-256 is not the entry's ${listed.digest}`,
      );
  }
  return {
    uri,
    mimeType: contents.mimeType,
    bytes,
    text: "text" in contents && typeof contents.text === "string" ? contents.text : new TextDecoder().decode(bytes),
  };
}

/** Where two JSON values first differ (a path such as `metadata.version`), or undefined when equal. */
function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  const here = path || "the top";
  if (typeof actual !== "object" || actual === null || typeof expected !== "object" || expected === null)
    return Object.is(actual, expected) ? undefined : here;
  if (Array.isArray(actual) !== Array.isArray(expected)) return here;
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  for (const key of keys) {
    const a = (actual as Record<string, unknown>)[key];
    const b = (expected as Record<string, unknown>)[key];
    if (!Object.hasOwn(actual, key) || !Object.hasOwn(expected, key)) return path ? `${path}.${key}` : key;
    const inner = firstDifference(a, b, path ? `${path}.${key}` : key);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function isSkillEntry(value: unknown): value is SkillEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  const frontmatter = entry["frontmatter"] as Record<string, unknown> | undefined;
  if (
    typeof entry["uri"] !== "string" ||
    typeof frontmatter !== "object" ||
    frontmatter === null ||
    typeof frontmatter["name"] !== "string" ||
    typeof frontmatter["description"] !== "string"
  )
    return false;
  const resources = entry["resources"];
  if (resources === undefined) return true;
  return (
    Array.isArray(resources) &&
    resources.every(
      (file: unknown) =>
        typeof file === "object" &&
        file !== null &&
        typeof (file as SkillFile).uri === "string" &&
        typeof (file as SkillFile).digest === "string" &&
        /^sha256:[0-9a-fA-F]{64}$/.test((file as SkillFile).digest),
    )
  );
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

function decodeBase64(server: string, uri: string, text: unknown): Uint8Array {
  let binary: string;
  try {
    binary = atob(String(text));
  } catch {
    throw new SkillVerificationError(server, uri, "digest", "its contents are neither text nor base64");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
