// Waiting for Ctrl-C or SIGTERM, for the commands that serve until then (inspect, replay).
import { once } from "node:events";

/** Resolves on Ctrl-C or SIGTERM; aborting `signal` takes its listeners off (e.g. when stdin ended first). */
export const stopSignal = (signal?: AbortSignal): Promise<unknown> =>
  Promise.race(["SIGINT", "SIGTERM"].map((name) => once(process, name, { signal }))).catch(() => undefined);
