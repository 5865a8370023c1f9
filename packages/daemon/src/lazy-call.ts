// A call handler whose code is loaded with the first call, not when the daemon starts: an embedder's
// handler (a CLI's `mcp call`) may bring a whole manager with it, which an idle daemon need not hold.
import type { CallHandler } from "./call.js";

/**
 * The handler `load` resolves with, loaded when the daemon first asks it something (`serversOf` or
 * `run`), and once (a load that failed is tried again with the next call): its `serversOf`, else every server of the call's configs (the daemon's default).
 */
export function lazyCallHandler(load: () => Promise<CallHandler>): CallHandler {
  let loading: Promise<CallHandler> | undefined;
  const handler = (): Promise<CallHandler> =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed load (a file it could not open just then) is tried again with the next call
      throw error;
    }));
  return {
    serversOf: async (params) => (await handler()).serversOf?.(params) ?? Object.keys(params.configs),
    run: async (params, context) => (await handler()).run(params, context),
  };
}
