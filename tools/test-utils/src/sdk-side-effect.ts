// An official-SDK server whose one tool has a side effect the test can count: for proving that a
// call is never run twice (a re-sent `tools/call` would count 2).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export interface SideEffectServer {
  /** The server to pass as `startSdkServer({ build })`. */
  build: () => McpServer;
  /** How many times `charge` has started. */
  runs(): number;
  /** Lets every `charge`, under way or to come, answer at once. */
  release(): void;
}

/**
 * A server with one tool, `charge`: each call counts one run, sends a log message on its own
 * stream (so the answer has begun, and on a resumable server carries an event id), then waits
 * until {@link SideEffectServer.release} (or its cancellation) before answering `charged <n>`.
 */
export function sideEffectServer(): SideEffectServer {
  let runs = 0;
  let open: (() => void) | undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const build = (): McpServer => {
    const server = new McpServer({ name: "side-effect", version: "1.0.0" }, { capabilities: { logging: {} } });
    server.registerTool("charge", { description: "Counts one run; answers once released" }, async (extra) => {
      const run = ++runs;
      await extra.sendNotification({
        method: "notifications/message",
        params: { level: "info", data: `charging ${run}` },
      });
      await new Promise<void>((resolve) => {
        void gate.then(resolve);
        extra.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      return { content: [{ type: "text", text: `charged ${run}` }] };
    });
    return server;
  };
  return {
    build,
    runs: () => runs,
    release: () => open?.(),
  };
}
