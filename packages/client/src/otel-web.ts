// `#otel` in browsers and workers: nothing is loaded, tracing takes the API passed as `tracing`.
import type { TracingApi } from "./tracing.js";

/** Browsers and workers load nothing on their own: pass the API as `tracing` to trace there. */
export function loadTracingApi(): Promise<TracingApi | undefined> {
  return Promise.resolve(undefined);
}
