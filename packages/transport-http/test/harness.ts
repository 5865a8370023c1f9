// Per-file test harness: hand-made fixture servers and transports, all closed after each test.
import { afterEach } from "vitest";
import { createHttpTransport, type HttpTransport, type HttpTransportConfig } from "../src/index.js";
import { startFixture, type Fixture, type Handler } from "./fixture-server.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** A hand-made server, stopped after the test. */
export async function fixture(handler: Handler, path?: string): Promise<Fixture> {
  const f = await startFixture(handler, path);
  onCleanup(() => f.stop());
  return f;
}

/** A connected transport (`type: "http"` unless given), closed after the test. */
export async function transport(config: Partial<HttpTransportConfig> & { url: string }): Promise<HttpTransport> {
  const t = await createHttpTransport({ type: "http", ...config });
  onCleanup(() => t.close());
  return t;
}
