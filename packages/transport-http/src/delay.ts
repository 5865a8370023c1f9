import type { AbortHandle } from "@mcp/jsonrpc";

/** Waits `ms`, or rejects with the abort's reason as soon as it aborts. Leaves no listener behind. */
export function delay(ms: number, abort: AbortHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abort.aborted) {
      reject(abort.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abort.reason);
    };
    const timer = setTimeout(() => {
      abort.offAbort(onAbort);
      resolve();
    }, ms);
    abort.onAbort(onAbort);
  });
}
