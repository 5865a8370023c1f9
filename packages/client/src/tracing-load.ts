// Which tracing API a connection uses: off, the one given, or `@opentelemetry/api` looked for once.
import { loadTracingApi } from "#otel";
import type { TracingApi } from "./tracing.js";

let loaded: Promise<TracingApi | undefined> | undefined;

/** The tracing API a connection uses: off, the one given, or `@opentelemetry/api` if installed (looked for once). */
export function tracingFor(option: boolean | TracingApi | undefined): Promise<TracingApi | undefined> {
  if (option === false) return Promise.resolve(undefined);
  if (typeof option === "object") return Promise.resolve(option);
  return (loaded ??= loadTracingApi());
}
