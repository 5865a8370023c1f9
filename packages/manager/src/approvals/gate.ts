// The check before `connectServers` / `addServers` register anything: each discovered project server approved, or refused with its reason.
import { resolve } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import type { DiscoveredServer } from "../config/types.js";
import { ServerSupervisor, type SupervisorHost } from "../supervisor.js";
import type { MCPManagerOptions, ServerState } from "../types.js";
import {
  defaultHowToApprove,
  needsApproval,
  reviewApprovals,
  type ApprovalPolicy,
  type ApprovalRefusal,
} from "./policy.js";
import { RefusedServer } from "./refused.js";
import { createApprovalStore, defaultApprovalsFile } from "./store.js";
import { discoveredAs } from "./tag.js";

/**
 * The manager's check before it registers servers (`connectServers`, `addServers`, and so
 * `discoverAndConnect`): every entry discovered in a project file — given in `discovered`, or a
 * config object discovery made — goes through the policy ({@link reviewApprovals}) once; a config
 * the host wrote in code starts as it is. An approved entry is marked `approved: true` (so its
 * headersHelper may run); a refused one is registered as a {@link RefusedServer}.
 */
export class ApprovalGate {
  readonly #options: MCPManagerOptions;
  #policy: ApprovalPolicy | undefined;
  /** The entries this manager's policy refused, with why. */
  readonly #refused = new WeakMap<DiscoveredServer, ApprovalRefusal>();
  /** Bumped by the manager's `disconnectAll`: a check that ends after it starts nothing. */
  #closes = 0;

  constructor(options: MCPManagerOptions) {
    this.#options = options;
  }

  /**
   * Undefined when every entry is decided already (the manager goes on in the same turn); else the
   * entries with the decisions made (to register instead), or undefined again when the manager
   * was closed while the policy was deciding.
   */
  admit(
    configs: Record<string, MCPServerConfig>,
    discovered: Record<string, DiscoveredServer>,
  ): Promise<Record<string, DiscoveredServer> | undefined> | undefined {
    const checked: DiscoveredServer[] = [];
    for (const [name, config] of Object.entries(configs)) {
      const entry = discovered[name] ?? discoveredAs(config);
      // Checked as it will run: the config given, which may differ from the file's in clocks only.
      if (entry && needsApproval(entry) && entry.approved !== true && !this.#refused.has(entry))
        checked.push({ ...entry, name, config });
    }
    return checked.length === 0 ? undefined : this.#decide(checked, discovered);
  }

  /** The supervisor for a server: a {@link RefusedServer} for an entry the policy refused. */
  supervisor(
    host: SupervisorHost,
    name: string,
    config: MCPServerConfig,
    discovered: DiscoveredServer | undefined,
    cacheKey: string,
    state: ServerState,
  ): ServerSupervisor {
    const refusal = discovered && this.#refused.get(discovered);
    return refusal
      ? new RefusedServer(host, name, config, discovered, cacheKey, refusal)
      : new ServerSupervisor(host, name, config, discovered, cacheKey, state);
  }

  /** A check under way starts nothing once it ends. */
  close(): void {
    this.#closes++;
  }

  async #decide(
    checked: DiscoveredServer[],
    discovered: Record<string, DiscoveredServer>,
  ): Promise<Record<string, DiscoveredServer> | undefined> {
    const closes = this.#closes;
    const policy = (this.#policy ??= {
      ...this.#options.approvals,
      store: this.#options.approvals?.store ?? createApprovalStore({ file: defaultApprovalsFile(this.#options.load) }),
    });
    const outcome = await reviewApprovals(checked, { project: resolve(this.#options.cwd ?? process.cwd()), policy });
    if (closes !== this.#closes) return undefined;
    const decided = { ...discovered };
    for (const entry of checked) {
      const why = outcome.refused.get(entry.name);
      // The file's own entry (as discovered), not the config given: the status shows where it came from.
      const own = discovered[entry.name] ?? discoveredAs(entry.config) ?? entry;
      if (why === undefined) {
        decided[entry.name] = { ...own, approved: true };
      } else {
        decided[entry.name] = { ...own };
        this.#refused.set(decided[entry.name]!, {
          reason: why,
          approve: (policy.howToApprove ?? defaultHowToApprove)(entry),
        });
      }
    }
    return decided;
  }
}
