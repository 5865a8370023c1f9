import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { userConfigDir } from "../config/families.js";
import { changedParts, fingerprintOf, isFingerprint, type Fingerprint } from "./fingerprint.js";

/**
 * Where the answers about project servers are kept: one file per user (`approvals.json` beside
 * `mcp-client.json`, the file the `mcp` CLI keeps too), one record per project directory. An
 * approval covers what a server runs (its {@link Fingerprint}), never only its name: any change
 * asks again. Only salted hashes are stored, never a command line, an env value or a header.
 */

/**
 * One project's answers. `approved` is the by-name list an older `mcp` kept: read, never trusted
 * (a name in it is asked about again), and left empty, so an older `mcp` reading the file asks
 * rather than starting a changed server. `denied` is by name: a declined server stays declined
 * until it is approved again.
 */
interface ProjectRecord {
  approved: string[];
  denied: string[];
  fingerprints: Record<string, Fingerprint>;
}

/** The file: a salt for the hashes (so equal configs on two machines hash apart), then each project's answers. */
interface StoreFile {
  version: 2;
  salt: string;
  projects: Record<string, ProjectRecord>;
}

/** A server as the store sees it: its name and the config that will run. */
export interface ApprovalSubject {
  name: string;
  config: MCPServerConfig;
}

/** Why a server is refused when nothing was ever said about it. */
export const NOT_APPROVED_YET = "not approved yet";
/** Why a server declined in this project is refused. */
export const DECLINED = "declined for this project";
const BY_NAME = "approved by name by an earlier mcp; approvals now cover what runs";

/** What the store says about one server as it is now. */
export type ApprovalCheck =
  | { approved: true }
  | {
      approved: false;
      /** In words: "not approved yet", "changed since it was approved: command, env", "declined for this project", … */
      reason: string;
      /** True when it was declined in this project (by name). */
      declined: boolean;
      /** Its fingerprint now, with the store's salt. */
      fingerprint: Fingerprint;
      /** The parts that changed since it was approved ("command", "env", "other settings"); undefined when it never was. */
      changedParts: string[] | undefined;
    };

/** A per-user record of which project servers, as they are, may run. See {@link createApprovalStore}. */
export interface ApprovalStore {
  /** The file it reads and writes. */
  readonly file: string;
  /** What the record says about each server, as it is now, in this project directory (one read of the file). */
  check(project: string, servers: readonly ApprovalSubject[]): Promise<ApprovalCheck[]>;
  /** Whether this server, as it is now, is approved in this project (its fingerprint matches). */
  isApproved(project: string, server: ApprovalSubject): Promise<boolean>;
  /** Approves these servers, as they are now, in this project (a decline of them is forgotten). */
  remember(project: string, servers: readonly ApprovalSubject[]): Promise<void>;
  /** Declines these servers in this project, by name, until {@link remember} approves them again. */
  deny(project: string, names: readonly string[]): Promise<void>;
}

/** The default approvals file: `approvals.json` in the user's config folder (see `userConfigDir`). */
export function defaultApprovalsFile(
  options: {
    home?: string | undefined;
    env?: Record<string, string | undefined> | undefined;
    platform?: NodeJS.Platform | undefined;
  } = {},
): string {
  return join(
    userConfigDir({
      home: options.home ?? homedir(),
      env: options.env ?? process.env,
      platform: options.platform ?? process.platform,
    }),
    "approvals.json",
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Reads the file; what is missing or malformed counts as never answered (so it is asked again). */
async function readStore(file: string): Promise<StoreFile> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    // none yet, or unreadable: nothing is approved
  }
  const root = isObject(doc) ? doc : {};
  const salt =
    typeof root["salt"] === "string" && root["salt"].length >= 16
      ? root["salt"]
      : randomBytes(18).toString("base64url");
  const projects: Record<string, ProjectRecord> = {};
  for (const [dir, raw] of Object.entries(isObject(root["projects"]) ? root["projects"] : {})) {
    if (!isObject(raw)) continue;
    const fingerprints: Record<string, Fingerprint> = {};
    // Fingerprints made with another salt can never match: dropped.
    if (isObject(raw["fingerprints"]) && root["salt"] === salt)
      for (const [name, print] of Object.entries(raw["fingerprints"]))
        if (isFingerprint(print)) fingerprints[name] = print;
    projects[dir] = { approved: names(raw["approved"]), denied: names(raw["denied"]), fingerprints };
  }
  return { version: 2, salt, projects };
}

async function writeStore(file: string, store: StoreFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temp, JSON.stringify(store, null, 2), { mode: 0o600 });
  await rename(temp, file);
}

function recordOf(store: StoreFile, project: string): ProjectRecord {
  return (store.projects[project] ??= { approved: [], denied: [], fingerprints: {} });
}

function checkOne(store: StoreFile, project: string, server: ApprovalSubject): ApprovalCheck {
  const record = store.projects[project];
  const fingerprint = fingerprintOf(server.config, store.salt);
  const remembered = record?.fingerprints[server.name];
  const changed = remembered ? changedParts(remembered, fingerprint) : undefined;
  if (changed?.length === 0) return { approved: true };
  const declined = record?.denied.includes(server.name) === true;
  const reason = declined
    ? DECLINED
    : changed
      ? `changed since it was approved: ${changed.join(", ")}`
      : record?.approved.includes(server.name)
        ? BY_NAME
        : NOT_APPROVED_YET;
  return { approved: false, reason, declined, fingerprint, changedParts: changed };
}

/**
 * The approvals file `file` (default: {@link defaultApprovalsFile}), in the format the `mcp` CLI
 * keeps (version 2: a salt, then per project directory the fingerprints approved and the names
 * declined), so an approval given with `mcp config approve` holds for the library and back.
 * Writes replace the file whole (a temporary file renamed over it), readable by the user only.
 */
export function createApprovalStore(options: { file?: string | undefined } = {}): ApprovalStore {
  const file = options.file ?? defaultApprovalsFile();
  const update = async (project: string, change: (store: StoreFile, record: ProjectRecord) => void): Promise<void> => {
    const store = await readStore(file);
    change(store, recordOf(store, project));
    await writeStore(file, store);
  };
  return {
    file,
    check: async (project, servers) => {
      const store = await readStore(file);
      return servers.map((server) => checkOne(store, project, server));
    },
    isApproved: async (project, server) =>
      (await readStore(file).then((store) => checkOne(store, project, server))).approved,
    remember: (project, servers) =>
      update(project, (store, record) => {
        for (const server of servers) {
          record.fingerprints[server.name] = fingerprintOf(server.config, store.salt);
          record.approved = record.approved.filter((name) => name !== server.name);
          record.denied = record.denied.filter((name) => name !== server.name);
        }
      }),
    deny: (project, denied) =>
      update(project, (_store, record) => {
        for (const name of denied) {
          delete record.fingerprints[name];
          record.approved = record.approved.filter((n) => n !== name);
          if (!record.denied.includes(name)) record.denied.push(name);
        }
      }),
  };
}
