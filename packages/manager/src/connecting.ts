// Servers starting, as a host shows them while it waits ("Connecting… 1 of 3 ready; waiting for db"):
// which of the servers this watch has seen waiting are ready, failed, or still awaited.
import type { MCPManager } from "./manager.js";
import type { ServerState } from "./types.js";

/** Where the servers a {@link watchConnecting} has seen starting stand. */
export interface ConnectingProgress {
  /** How many have connected. */
  ready: number;
  /** How many have failed. */
  failed: number;
  /** How many it has seen start (those waiting, and those that were waiting and are done). */
  total: number;
  /** The names of those still connecting or reconnecting, in the order they were seen. */
  waiting: string[];
}

const WAITING: ReadonlySet<ServerState> = new Set(["connecting", "reconnecting"]);

/**
 * Watches servers start: every server seen connecting or reconnecting (when the watch looks, or by
 * an event), and every one whose first event is its outcome (connected or failed: it was created
 * waiting and was quick), counts. `onChange` hears the progress at each status change; `progress()`
 * reads it at any time; `stop()` ends the watch.
 *
 * @example
 * const watch = watchConnecting(manager, (p) => console.error(`${p.ready} of ${p.total} ready`));
 * await manager.connectServers(configs);
 * watch.stop();
 */
export function watchConnecting(
  manager: Pick<MCPManager, "getStatuses" | "onStatusChange">,
  onChange: (progress: ConnectingProgress) => void = () => undefined,
): { progress(): ConnectingProgress; stop(): void } {
  const states = new Map<string, ServerState>();
  const progress = (): ConnectingProgress => {
    for (const status of manager.getStatuses())
      if (states.has(status.name) || WAITING.has(status.state)) states.set(status.name, status.state);
    const count = (state: ServerState): number => [...states.values()].filter((s) => s === state).length;
    const waiting = [...states].filter(([, state]) => WAITING.has(state)).map(([name]) => name);
    return { ready: count("connected"), failed: count("failed"), total: states.size, waiting };
  };
  const stop = manager.onStatusChange((status) => {
    if (
      states.has(status.name) ||
      WAITING.has(status.state) ||
      status.state === "connected" ||
      status.state === "failed"
    )
      states.set(status.name, status.state);
    onChange(progress());
  });
  return { progress, stop };
}
