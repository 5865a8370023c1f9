// The `DELETE` that ends a session on close, with the auth provider's credentials, within its time.
import { abortHandleOf } from "@mcp/jsonrpc/internal";
import type { ExchangePool } from "./exchange.js";
import type { RequestPath } from "./request-path.js";

/**
 * The `DELETE` that ends a session on close, with the auth provider's credentials (a server that
 * checks them on every request would refuse it without), all of it within `ms`: the provider's
 * headers (a refresh it may run) and the exchange. A courtesy: any failure is ignored, as the
 * server expires the session anyway.
 */
export async function endSession(
  path: RequestPath,
  pool: ExchangePool,
  url: URL,
  headers: Record<string, string>,
  ms: number,
): Promise<void> {
  const signal = AbortSignal.timeout(ms);
  const expired = new Promise<never>((_resolve, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true }),
  );
  expired.catch(() => undefined);
  try {
    const sent = await Promise.race([path.authorized({ method: "DELETE", url, headers }), expired]);
    const response = await pool.exchange({ method: "DELETE", url, headers: sent, abort: abortHandleOf(signal) });
    response.cancel();
  } catch {
    // Ending the session is a courtesy; the server will expire it anyway.
  }
}
