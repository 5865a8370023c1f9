// A refused project server: registered so its status says why, and never started.
import type { MCPServerConfig, MCPServerConnection } from "@mcp/client";
import type { DiscoveredServer } from "../config/types.js";
import type { ListKind } from "../server.js";
import { ServerSupervisor, type SupervisorHost } from "../supervisor.js";
import { ServerUnavailableError } from "../types.js";
import type { ApprovalRefusal } from "./policy.js";

/**
 * A project server the approval policy refused: listed with state `not-approved`, its reason and
 * what approves it, and never started — not spawned, not fetched, its headersHelper not run. Every
 * way to start it (a wait, a list, a reconnect) fails at once with a `server_unavailable` error.
 */
export class RefusedServer extends ServerSupervisor {
  constructor(
    host: SupervisorHost,
    name: string,
    config: MCPServerConfig,
    discovered: DiscoveredServer | undefined,
    cacheKey: string,
    refusal: ApprovalRefusal,
  ) {
    super(host, name, config, discovered, cacheKey, "not-approved");
    this.status = {
      ...this.status,
      lastError: `project server ${refusal.reason} (approve it: ${refusal.approve})`,
      refusal,
    };
  }

  #refused(): Promise<never> {
    return Promise.reject(new ServerUnavailableError(this.name, "not-approved", this.status.refusal?.reason));
  }

  override offerCached(): void {}

  override startIfNew(): undefined {
    return undefined;
  }

  override connect(): Promise<MCPServerConnection> {
    return this.#refused();
  }

  override waitForConnection(): Promise<MCPServerConnection> {
    return this.#refused();
  }

  override reconnect(): Promise<MCPServerConnection> {
    return this.#refused();
  }

  override list(_kind: ListKind): Promise<unknown[]> {
    return this.#refused();
  }

  /** Nothing runs, so nothing to stop: it stays `not-approved`. */
  override async stop(): Promise<void> {}
}
