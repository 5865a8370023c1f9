// `#otel` on Node, Bun and Deno: `@opentelemetry/api` when the program has it installed.
import type { TracingApi } from "./tracing.js";

/**
 * `@opentelemetry/api` when the program has it installed (an optional peer dependency), else
 * undefined: nothing else is loaded. Runtimes with the `node` condition (Node, Bun, Deno) only.
 */
export async function loadTracingApi(): Promise<TracingApi | undefined> {
  try {
    const name = "@opentelemetry/api"; // not a literal in import(): no bundler pulls it in on its own
    return (await import(name)) as TracingApi;
  } catch {
    return undefined;
  }
}
