// The transient line on a terminal while servers connect ("Connecting… 1 of 2 ready"), erased before anything else is printed.
import { watchConnecting, type ConnectingProgress, type MCPManager } from "@mcp/manager";
import { color, statusLine } from "./ui.js";

/** How long servers may take before the line appears: a quick start shows nothing. */
const SHOW_AFTER_MS = 300;

/**
 * On a terminal (stderr), one transient line while servers connect (@mcp/manager's
 * watchConnecting): how many are ready, how many failed, and which are still awaited, rewritten as
 * each one connects or fails and erased when none is left (or before anything else is written).
 * Elsewhere (a pipe, a file) nothing. Returns the function that stops it.
 */
export function connectingLine(manager: MCPManager): () => void {
  if (process.stderr.isTTY !== true) return () => undefined;
  let shown = false;
  const render = ({ ready, failed, total, waiting }: ConnectingProgress): void => {
    if (!shown) return;
    if (waiting.length === 0) return statusLine(undefined);
    const head = `Connecting… ${ready} of ${total} ready${failed ? `, ${failed} failed` : ""}; waiting for `;
    const width = Math.max(40, (process.stderr.columns || 80) - 1);
    let names = waiting.join(", ");
    for (let count = waiting.length; head.length + names.length > width && count > 1;) {
      count--;
      names = `${waiting.slice(0, count).join(", ")} +${waiting.length - count} more`;
    }
    statusLine(color.dim(`${head}${names}`.slice(0, width)));
  };
  const watch = watchConnecting(manager, render);
  const timer = setTimeout(() => {
    shown = true;
    render(watch.progress());
  }, SHOW_AFTER_MS).unref();
  return () => {
    watch.stop();
    clearTimeout(timer);
    if (shown) statusLine(undefined);
  };
}
