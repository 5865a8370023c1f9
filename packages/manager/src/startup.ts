// Starting many servers at once: behind a startup gate (each spawned one event-loop turn after the last, cached tools
// offered for those still starting when the gate opens, errors and tool name collisions reported), or registered idle.
import type { MCPServerConfig, Tool } from "@mcp/client";
import type { DiscoveredServer } from "./config/types.js";
import type { NameCollision } from "./names.js";
import type { ServerSupervisor } from "./supervisor.js";
import type { ConnectResult, MCPTool, ServerState } from "./types.js";

/** What the gated start needs of the manager. */
export interface StartupHost {
  /** How long to wait for servers before offering cached tools instead (`startupTimeoutMs`). */
  readonly gateMs: number;
  readonly servers: ReadonlyMap<string, ServerSupervisor>;
  /** Registers a supervisor for the server (the one of the same name is stopped first). */
  create(
    name: string,
    config: MCPServerConfig,
    discovered: DiscoveredServer | undefined,
    state: ServerState,
  ): ServerSupervisor;
  /** Lists the entries the host file disables. */
  addDisabled(discovered: Record<string, DiscoveredServer>): void;
  cachedTools(server: ServerSupervisor): Promise<Tool[] | undefined>;
  toolsChanged(): void;
  getTools(): MCPTool[];
  /** Tool names that two tools wanted (after `getTools`). */
  collisions(): NameCollision[];
}

/** Connects every server in parallel; see `MCPManager.connectServers`. */
export async function connectWithGate(
  host: StartupHost,
  configs: Record<string, MCPServerConfig>,
  discovered: Record<string, DiscoveredServer>,
): Promise<ConnectResult> {
  // The gate's clock starts before anything is spawned (spawning ten processes takes a while).
  let gateTimer: ReturnType<typeof setTimeout> | undefined;
  const gate = new Promise<void>((resolve) => (gateTimer = setTimeout(resolve, host.gateMs)));
  const started: { server: ServerSupervisor; attempt: Promise<unknown>; cached: Promise<Tool[] | undefined> }[] = [];
  let turn = Promise.resolve();
  for (const [name, config] of Object.entries(configs)) {
    // Not awaited unless there is one to stop: a server is registered in the same turn as the call.
    const old = host.servers.get(name);
    if (old) await old.stop();
    const server = host.create(name, config, discovered[name], "connecting");
    const cached = host.cachedTools(server);
    // Spawning blocks the event loop (a fork and an exec each), so each
    // server starts one event-loop turn after the last: the gate's timer and the cache reads run
    // in between instead of behind every spawn, and a stop before a server's turn spawns nothing.
    // A server connected some other way before its turn (reconnectServer) is not connected again.
    const spawned = turn.then(() => server.startIfNew());
    turn = turn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    const attempt = spawned.catch(() => undefined);
    started.push({ server, attempt, cached });
  }
  host.addDisabled(discovered);

  await Promise.race([Promise.all(started.map((s) => s.attempt)), gate]);
  clearTimeout(gateTimer);
  const waitFor: Promise<unknown>[] = [];
  for (const { server, attempt, cached } of started) {
    if (server.status.state !== "connecting") continue;
    const tools = await cached;
    if (tools && server.status.state === "connecting") {
      server.offerCached(tools);
      host.toolsChanged();
    } else if (!tools) {
      waitFor.push(attempt);
    }
  }
  await Promise.all(waitFor);
  return resultOf(host, started);
}

/** Registers servers without starting any, their cached tools offered; see `MCPManager.addServers`. */
export async function addIdle(
  host: StartupHost,
  configs: Record<string, MCPServerConfig>,
  discovered: Record<string, DiscoveredServer>,
): Promise<MCPTool[]> {
  const added: ServerSupervisor[] = [];
  for (const [name, config] of Object.entries(configs)) {
    const old = host.servers.get(name);
    if (old) await old.stop();
    added.push(host.create(name, config, discovered[name], "idle"));
  }
  host.addDisabled(discovered);
  await Promise.all(
    added.map(async (server) => {
      const tools = await host.cachedTools(server);
      if (tools && server.status.state === "idle") server.offerCached(tools);
    }),
  );
  host.toolsChanged();
  return host.getTools();
}

/** Which servers connected, each failed one's error, and each name collision as an error of the server that lost the name. */
function resultOf(host: StartupHost, started: { server: ServerSupervisor }[]): ConnectResult {
  const errors = new Map<string, string>();
  const connectedServers: string[] = [];
  for (const { server } of started) {
    if (server.status.state === "connected") connectedServers.push(server.name);
    else if ((server.status.state === "failed" || server.status.state === "not-approved") && server.status.lastError)
      errors.set(server.name, server.status.lastError);
  }
  const tools = host.getTools();
  for (const collision of host.collisions()) {
    const message = `tool name collision: "${collision.name}" is taken by tool "${collision.kept.tool}" of server "${collision.kept.server}"; tool "${collision.dropped.tool}" of server "${collision.dropped.server}" is not offered`;
    errors.set(
      collision.dropped.server,
      errors.has(collision.dropped.server) ? `${errors.get(collision.dropped.server)}; ${message}` : message,
    );
  }
  return { tools, errors, connectedServers };
}
