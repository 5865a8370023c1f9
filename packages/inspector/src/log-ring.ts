// The log's ring, for the inspector's server and its page alike: what servers and apps send as they
// please (log lines, notifications, an app's messages) is kept apart from the calls, each its own
// newest entries, so a flood of one cannot push the other out.
import type { LogEntry } from "./api.js";

/** Whether an entry is chatter (a log line, a notification, an app's message) rather than a call or a status. */
export function isChatter(entry: Pick<LogEntry, "kind">): boolean {
  return entry.kind === "app" || entry.kind === "log" || entry.kind === "notification";
}

/** `log` (oldest first) with at most `max` calls and `max` chatter entries: the newest of each, in order. */
export function trimLog(log: LogEntry[], max: number): LogEntry[] {
  let calls = 0;
  let chatter = 0;
  for (const entry of log) {
    if (isChatter(entry)) chatter++;
    else calls++;
  }
  if (calls <= max && chatter <= max) return log;
  let dropCalls = Math.max(0, calls - max);
  let dropChatter = Math.max(0, chatter - max);
  return log.filter((entry) => {
    if (isChatter(entry)) return dropChatter-- <= 0;
    return dropCalls-- <= 0;
  });
}
