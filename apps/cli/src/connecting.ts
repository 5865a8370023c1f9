// The transient line on a terminal while servers connect ("Connecting… 1 of 2 ready"), erased before anything else is printed.
import type { MCPManager } from "@mcp/manager";
import { color, statusLine } from "./ui.js";

/** How long servers may take before the line appears: a quick start shows nothing. */
const SHOW_AFTER_MS = 300;
const WAITING = new Set(["connecting", "reconnecting"]);

/**
 * On a terminal (stderr), one transient line while servers connect: how many are ready, how many
 * failed, and which are still awaited, rewritten as each one connects or fails and erased when
 * none is left (or before anything else is written). Elsewhere (a pipe, a file) nothing. Returns
 * the function that stops it.
 */
export function connectingLine(manager: MCPManager): () => void {
  if (process.stderr.isTTY !== true) return () => undefined;
  /** The servers this command started, by their last state (a server may start waiting without an event: it is created so). */
  const states = new Map<string, string>();
  let shown = false;
  const look = (): void => {
    for (const status of manager.getStatuses())
      if (states.has(status.name) || WAITING.has(status.state)) states.set(status.name, status.state);
  };
  const render = (): void => {
    if (!shown) return;
    look();
    const waiting = [...states].filter(([, state]) => WAITING.has(state)).map(([name]) => name);
    if (waiting.length === 0) return statusLine(undefined);
    const ready = [...states.values()].filter((state) => state === "connected").length;
    const failed = [...states.values()].filter((state) => state === "failed").length;
    const head = `Connecting… ${ready} of ${states.size} ready${failed ? `, ${failed} failed` : ""}; waiting for `;
    const width = Math.max(40, (process.stderr.columns || 80) - 1);
    let names = waiting.join(", ");
    for (let count = waiting.length; head.length + names.length > width && count > 1;) {
      count--;
      names = `${waiting.slice(0, count).join(", ")} +${waiting.length - count} more`;
    }
    statusLine(color.dim(`${head}${names}`.slice(0, width)));
  };
  const timer = setTimeout(() => {
    shown = true;
    render();
  }, SHOW_AFTER_MS).unref();
  const unsubscribe = manager.onStatusChange((status) => {
    // A server created waiting may be connected (or failed) before the line is first drawn: its
    // first event is then its outcome, and it still counts.
    if (
      states.has(status.name) ||
      WAITING.has(status.state) ||
      status.state === "connected" ||
      status.state === "failed"
    )
      states.set(status.name, status.state);
    render();
  });
  return () => {
    unsubscribe();
    clearTimeout(timer);
    if (shown) statusLine(undefined);
  };
}
