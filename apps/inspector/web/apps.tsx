// MCP Apps in the inspector (SEP-1865): a tool's app beside its result. The app runs in the sandbox
// proxy's inner iframe (on the proxy's origin: one of its own, never the inspector's; under its own
// CSP); this side is the host's bridge: `ui/initialize`, the tool's input and result once the app
// is initialized, size, links, messages. Every message the app sends goes to the inspector's
// server, which logs it and runs its `tools/call` and `resources/read` (its own server's tools
// only, as the user's calls run).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { AppMessageAnswer, AppOpenAnswer, CallAnswer, ToolRow } from "../src/api.js";
import { api } from "./client.js";

/** The version of the extension's protocol this host speaks. */
const PROTOCOL_VERSION = "2026-01-26";
/** The tallest an app may make itself, in pixels. */
const MAX_HEIGHT = 1200;

type Message = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** What the app asked of the user, shown under it: a link to open, a message, a model context. */
interface Said {
  kind: "link" | "message" | "context";
  text: string;
}

function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (typeof block === "object" && block !== null && typeof (block as { text?: unknown }).text === "string" ? (block as { text: string }).text : JSON.stringify(block))).join("\n");
}

/** The answer to a request the page handles itself (the server answered none of these). */
function answerHere(message: Message, app: AppOpenAnswer, tell: (said: Said) => void): { result: unknown } | { error: { code: number; message: string } } {
  const params = message.params ?? {};
  switch (message.method) {
    case "ui/initialize":
      return {
        result: {
          protocolVersion: PROTOCOL_VERSION,
          hostInfo: app.host,
          hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, sandbox: { permissions: {}, csp: app.csp } },
          hostContext: {
            toolInfo: { tool: app.tool },
            theme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
            displayMode: "inline",
            availableDisplayModes: ["inline"],
            containerDimensions: { maxHeight: MAX_HEIGHT },
            locale: navigator.language,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            userAgent: "mcp-inspect",
            platform: "web",
          },
        },
      };
    case "ui/open-link": {
      const url = typeof params["url"] === "string" ? params["url"] : "";
      if (!/^https?:\/\//i.test(url)) return { error: { code: -32000, message: "Invalid URL: only http and https links are opened" } };
      tell({ kind: "link", text: url });
      return { result: {} };
    }
    case "ui/message":
      tell({ kind: "message", text: textOf(params["content"]) });
      return { result: {} };
    case "ui/update-model-context":
      tell({ kind: "context", text: params["content"] === undefined ? JSON.stringify(params["structuredContent"] ?? {}) : textOf(params["content"]) });
      return { result: {} };
    case "ui/request-display-mode":
      return { result: { mode: "inline" } };
    default:
      return { error: { code: -32601, message: `Method not found: ${String(message.method)}` } };
  }
}

/** A tool's app, opened for one call's input and result. */
export function AppView({ tool, args, answer }: { tool: ToolRow; args: Record<string, unknown>; answer: CallAnswer }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [app, setApp] = useState<AppOpenAnswer | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [height, setHeight] = useState(160);
  const [said, setSaid] = useState<Said[]>([]);

  useEffect(() => {
    let view: string | undefined;
    let gone = false;
    api<AppOpenAnswer>("/api/app/open", { tool: tool.name })
      .then((opened) => {
        view = opened.view;
        if (gone) void api("/api/app/close", { view });
        else setApp(opened);
      })
      .catch((error: Error) => setProblem(error.message));
    return () => {
      gone = true;
      // Teardown (SEP-1865 asks the app first): the iframe goes with this component, the view with it.
      frame.current?.contentWindow?.postMessage({ jsonrpc: "2.0", id: "teardown", method: "ui/resource-teardown", params: { reason: "the inspector closed the app" } }, "*");
      if (view) void api("/api/app/close", { view });
    };
  }, [tool.name, answer.id]);

  // Listening starts in the commit that creates the proxy's frame (a layout effect), not after the
  // next paint: the proxy says it is ready as soon as it loads, and a message sent before anyone
  // listens is lost, which left the app never loaded.
  useLayoutEffect(() => {
    if (!app) return;
    const origin = new URL(app.sandbox).origin;
    const post = (message: unknown): void => frame.current?.contentWindow?.postMessage(message, origin);
    const tell = (next: Said): void => setSaid((before) => [...before.slice(-4), next]);
    const onMessage = (event: MessageEvent<unknown>): void => {
      // Only the proxy this component framed, on its origin: never the app itself, nor anything else.
      if (event.source !== frame.current?.contentWindow || event.origin !== origin || !isMessage(event.data)) return;
      const message = event.data;
      if (message.method === "ui/notifications/sandbox-proxy-ready") {
        post({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: app.html, csp: app.csp, permissions: {} } });
        return;
      }
      void api<AppMessageAnswer>("/api/app/message", { view: app.view, message })
        .then((served) => {
          if (message.id !== undefined && message.method !== undefined) {
            post(served.response ?? { jsonrpc: "2.0", id: message.id, ...answerHere(message, app, tell) });
            return;
          }
          if (message.method === "ui/notifications/initialized") {
            // Nothing goes to the app before it says it is initialized; then its input and result.
            post({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: args } });
            if (answer.result) post({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: answer.result });
            else post({ jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: answer.error?.message ?? "the call failed" } });
          } else if (message.method === "ui/notifications/size-changed") {
            const h = Number(message.params?.["height"]);
            if (Number.isFinite(h) && h > 0) setHeight(Math.min(MAX_HEIGHT, Math.ceil(h)));
          }
        })
        .catch((error: Error) => {
          if (message.id !== undefined && message.method !== undefined) post({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: error.message } });
        });
    };
    addEventListener("message", onMessage);
    return () => removeEventListener("message", onMessage);
  }, [app]);

  if (problem) return <div class="app-view banner error">The app of {tool.tool} cannot be shown: {problem}</div>;
  if (!app) return <div class="app-view muted">Loading the app…</div>;
  return (
    <div class={app.prefersBorder === false ? "app-view borderless" : "app-view"} data-view={app.view}>
      <div class="app-head">
        <span class="tag">MCP App</span> <code>{app.uri}</code>
        <span class="muted"> sandboxed: its own origin, {app.csp.connectDomains?.length ? `network to ${app.csp.connectDomains.join(" ")}` : "no network"}</span>
      </div>
      {app.ignored.length ? <div class="muted app-ignored">Left out of its _meta.ui: {app.ignored.join("; ")}</div> : null}
      <iframe ref={frame} class="app-frame" title={`${tool.tool} app`} src={app.sandbox} sandbox="allow-scripts allow-same-origin" referrerpolicy="no-referrer" style={{ height: `${height}px` }} />
      {said.map((s) => (
        <div class={`app-said ${s.kind}`}>
          {s.kind === "link" ? (
            <>
              The app asks to open{" "}
              <a href={s.text} target="_blank" rel="noopener noreferrer">
                {s.text}
              </a>
            </>
          ) : (
            <>
              {s.kind === "message" ? "The app sent a message: " : "The app set the model context: "}
              <span class="app-said-text">{s.text}</span>
            </>
          )}
        </div>
      ))}
    </div>
  );
}
