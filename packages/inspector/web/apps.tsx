// MCP Apps in the inspector (SEP-1865): a tool's app beside its result. The app runs in the sandbox
// proxy's inner iframe (on the proxy's origin: one of its own, never the inspector's; under its own
// CSP); this side is the host's bridge: `ui/initialize`, the tool's input and result once the app
// is initialized, size, links, messages. Every message the app sends goes to the inspector's
// server, which logs it and runs its `tools/call` and `resources/read` (its own server's tools
// only, as the user's calls run).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { AppOpenAnswer, CallAnswer, ToolRow } from "../src/api.js";
import { AppConfirm, mustAsk, type PendingCall } from "./app-confirm.js";
import { AppMessageTooBig, sendAppMessage } from "./app-relay.js";
import { api, PAGE } from "./client.js";
import { appKey, frameAllow, remember, remembered, specPermissions } from "./permissions.js";
import {
  containerDimensions,
  DISPLAY_MODES,
  MAX_HEIGHT,
  modeFor,
  styles,
  theme,
  type DisplayMode,
} from "./host-context.js";

/** The version of the extension's protocol this host speaks. */
const PROTOCOL_VERSION = "2026-01-26";
/** How long a closed app gets to answer `ui/resource-teardown` before its frame goes. */
const TEARDOWN_MS = 2000;

type Message = {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

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
  return blocks
    .map((block) =>
      typeof block === "object" && block !== null && typeof (block as { text?: unknown }).text === "string"
        ? (block as { text: string }).text
        : JSON.stringify(block),
    )
    .join("\n");
}

/** The host's side of an app's display: its context now, and the mode it gets when it asks for one. */
interface HostSide {
  /** The theme, styles, display mode and container dimensions as they are now. */
  context(): Record<string, unknown>;
  /** The app's `appCapabilities` from `ui/initialize`: the display modes it declared. */
  declare(capabilities: unknown): void;
  /** Sets the mode asked for when allowed; answers the mode actually set. */
  requestMode(requested: unknown): DisplayMode;
  /** The permissions the user granted the app, under the spec's names. */
  permissions(): Record<string, object>;
}

/** The answer to a request the page handles itself (the server answered none of these). */
function answerHere(
  message: Message,
  app: AppOpenAnswer,
  tell: (said: Said) => void,
  host: HostSide,
): { result: unknown } | { error: { code: number; message: string } } {
  const params = message.params ?? {};
  switch (message.method) {
    case "ui/initialize":
      host.declare(params["appCapabilities"]);
      return {
        result: {
          protocolVersion: PROTOCOL_VERSION,
          hostInfo: app.host,
          hostCapabilities: {
            openLinks: {},
            serverTools: {},
            serverResources: {},
            logging: {},
            sandbox: { permissions: host.permissions(), csp: app.csp },
          },
          hostContext: {
            toolInfo: { tool: app.tool },
            ...host.context(),
            availableDisplayModes: [...DISPLAY_MODES],
            locale: navigator.language,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            userAgent: "mcp-inspect",
            platform: "web",
          },
        },
      };
    case "ui/open-link": {
      const url = typeof params["url"] === "string" ? params["url"] : "";
      if (!/^https?:\/\//i.test(url))
        return { error: { code: -32000, message: "Invalid URL: only http and https links are opened" } };
      tell({ kind: "link", text: url });
      return { result: {} };
    }
    case "ui/message":
      tell({ kind: "message", text: textOf(params["content"]) });
      return { result: {} };
    case "ui/update-model-context":
      tell({
        kind: "context",
        text:
          params["content"] === undefined
            ? JSON.stringify(params["structuredContent"] ?? {})
            : textOf(params["content"]),
      });
      return { result: {} };
    case "ui/request-display-mode":
      return { result: { mode: host.requestMode(params["mode"]) } };
    default:
      return { error: { code: -32601, message: `Method not found: ${String(message.method)}` } };
  }
}

/**
 * What the sandbox stops, as it is: HTTP and WebSockets follow the declared origins; WebRTC does
 * not (no browser lets a page's policy stop it), nor do pages of the declared frame origins.
 */
function limits(csp: AppOpenAnswer["csp"]): string {
  const connect = csp.connectDomains?.length
    ? `HTTP and WebSockets only to ${csp.connectDomains.join(" ")}`
    : "no HTTP, no WebSockets";
  const frames = csp.frameDomains?.length ? `; frames from ${csp.frameDomains.join(" ")} run outside this policy` : "";
  return `sandboxed: its own origin, ${connect}${frames}; WebRTC is not blocked`;
}

/**
 * The sandbox proxy's window: the one frame of the page this component frames (which lets that
 * frame hold the proxy's origin only, so an app navigating it reaches no other page of this machine).
 */
function proxyIn(frame: HTMLIFrameElement | null | undefined): Window | undefined {
  return frame?.contentWindow?.[0];
}

/**
 * Ends an app as SEP-1865 asks: `ui/resource-teardown` first, its frame kept (moved out of the
 * page, which keeps its document) until it answers or {@link TEARDOWN_MS} pass; its answer is
 * logged; then its frame and its view go.
 */
function tearDown(frame: HTMLIFrameElement | null, app: AppOpenAnswer): void {
  const close = (): void => void api("/api/app/close", { view: app.view }).catch(() => undefined);
  const target = proxyIn(frame);
  const holder = document.body as HTMLElement & { moveBefore?: (node: Node, child: Node | null) => void };
  if (!frame || !target || typeof holder.moveBefore !== "function") {
    target?.postMessage(
      {
        jsonrpc: "2.0",
        id: "teardown",
        method: "ui/resource-teardown",
        params: { reason: "the inspector closed the app" },
      },
      new URL(app.sandbox).origin,
    );
    close();
    return;
  }
  // An atomic move: the frame leaves the component (which is going) but keeps its document.
  frame.hidden = true;
  holder.moveBefore(frame, null);
  const origin = new URL(app.sandbox).origin;
  const id = `teardown-${app.view}`;
  const done = (): void => {
    clearTimeout(timer);
    removeEventListener("message", onMessage);
    frame.remove();
    close();
  };
  const onMessage = (event: MessageEvent<unknown>): void => {
    if (event.source !== target || event.origin !== origin || !isMessage(event.data) || event.data.id !== id) return;
    void api("/api/app/message", { view: app.view, message: event.data }).finally(done);
  };
  addEventListener("message", onMessage);
  const timer = setTimeout(done, TEARDOWN_MS);
  target.postMessage(
    { jsonrpc: "2.0", id, method: "ui/resource-teardown", params: { reason: "the inspector closed the app" } },
    origin,
  );
}

/**
 * A tool's app, opened for one call's input and result (rendered anew for each: keyed by the call).
 * It opens when the call starts: the app gets the call's input once it is initialized, and its
 * result (`answer`) when the call ends.
 */
export function AppView({
  tool,
  args,
  answer,
  kept = false,
  onKeep,
  onClose,
  toolNamed = () => undefined,
}: {
  tool: ToolRow;
  /** The app's server's tool of that name (its annotations say whether a call of it is asked first). */
  toolNamed?: ((server: string, name: string) => ToolRow | undefined) | undefined;
  args: Record<string, unknown>;
  answer: CallAnswer | undefined;
  /** Kept open: another call or another tool opens its app beside it instead of closing it. */
  kept?: boolean | undefined;
  onKeep?: ((kept: boolean) => void) | undefined;
  onClose?: (() => void) | undefined;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const opened = useRef<AppOpenAnswer | undefined>(undefined);
  const [app, setApp] = useState<AppOpenAnswer | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [height, setHeight] = useState(160);
  const [said, setSaid] = useState<Said[]>([]);
  /** The last message of the app that was too big to relay, said under it. */
  const [refused, setRefused] = useState<string | undefined>();
  const [mode, setMode] = useState<DisplayMode>("inline");
  const [initialized, setInitialized] = useState(false);
  /** The features the user granted the app; undefined until asked (an app that asks for none gets none, unasked). */
  const [granted, setGranted] = useState<string[] | undefined>();
  /** What the message handler reads as it is now (it is made once per app). */
  const live = useRef<{
    mode: DisplayMode;
    declared: unknown;
    answer: CallAnswer | undefined;
    resultSent: boolean;
    granted: string[];
    post: (message: unknown) => void;
    askAll: boolean;
    toolNamed: (server: string, name: string) => ToolRow | undefined;
  }>({
    mode: "inline",
    declared: undefined,
    answer,
    resultSent: false,
    granted: [],
    post: () => undefined,
    askAll: false,
    toolNamed,
  });
  /** Ask the user before each of the app's tool calls (calls of destructive tools are asked anyway). */
  const [askAll, setAskAll] = useState(false);
  /** The app's tool calls waiting for the user's answer, first shown first. */
  const [pending, setPending] = useState<PendingCall[]>([]);
  live.current.askAll = askAll;
  live.current.toolNamed = toolNamed;
  live.current.answer = answer;
  live.current.mode = mode;
  live.current.granted = granted ?? [];

  /** The call's result (or its failure) to the app, once: when the app is initialized and the call has ended, whichever is last. */
  const deliver = (): void => {
    const now = live.current;
    if (!now.answer || now.resultSent) return;
    now.resultSent = true;
    if (now.answer.result)
      now.post({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: now.answer.result });
    else
      now.post({
        jsonrpc: "2.0",
        method: "ui/notifications/tool-cancelled",
        params: { reason: now.answer.error?.message ?? "the call failed" },
      });
  };
  useEffect(() => {
    if (initialized) deliver();
  }, [answer, initialized]);
  const width = (): number => frame.current?.getBoundingClientRect().width ?? 0;
  const contextChanged = (params: Record<string, unknown>): void =>
    live.current.post({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params });
  const host: HostSide = {
    context: () => ({
      theme: theme(),
      styles: styles(),
      displayMode: live.current.mode,
      containerDimensions: containerDimensions(live.current.mode, width()),
    }),
    declare: (capabilities) => {
      live.current.declared = (capabilities as { availableDisplayModes?: unknown } | undefined)?.availableDisplayModes;
    },
    permissions: () => specPermissions(live.current.granted),
    requestMode: (requested) => {
      const next = modeFor(requested, live.current.mode, live.current.declared);
      live.current.mode = next;
      setMode(next);
      return next;
    },
  };
  // Once the app is initialized, every change of what it was told: display mode, theme, width.
  const first = useRef(true);
  useEffect(() => {
    if (!initialized) return;
    if (first.current) return void (first.current = false);
    contextChanged({ displayMode: mode, containerDimensions: containerDimensions(mode, width()) });
  }, [mode, initialized]);
  useEffect(() => {
    if (!initialized) return;
    const scheme = matchMedia("(prefers-color-scheme: dark)");
    const onTheme = (): void => contextChanged({ theme: theme(), styles: styles() });
    scheme.addEventListener("change", onTheme);
    let told = Math.round(width());
    const resized = new ResizeObserver(() => {
      const now = Math.round(width());
      if (now === told || now === 0) return;
      told = now;
      contextChanged({ containerDimensions: containerDimensions(live.current.mode, now) });
    });
    if (frame.current) resized.observe(frame.current);
    return () => {
      scheme.removeEventListener("change", onTheme);
      resized.disconnect();
    };
  }, [initialized]);

  useEffect(() => {
    let gone = false;
    api<AppOpenAnswer>("/api/app/open", { tool: tool.name, page: PAGE })
      .then((answer) => {
        if (gone) return void api("/api/app/close", { view: answer.view });
        opened.current = answer;
        const answered = remembered(appKey(answer.server, answer.uri));
        if (answer.permissions.length === 0 || answered !== undefined) setGranted(answered ? answer.permissions : []);
        setApp(answer);
      })
      .catch((error: Error) => setProblem(error.message));
    return () => {
      gone = true;
    };
  }, []);
  // Teardown in a layout effect's cleanup: it runs while the frame is still in the page (an effect's
  // runs after the page let it go).
  useLayoutEffect(
    () => () => {
      if (opened.current) tearDown(frame.current, opened.current);
    },
    [],
  );

  // Listening starts in the commit that creates the proxy's frame (a layout effect), not after the
  // next paint: the proxy says it is ready as soon as it loads, and a message sent before anyone
  // listens is lost, which left the app never loaded.
  useLayoutEffect(() => {
    if (!app) return;
    const origin = new URL(app.sandbox).origin;
    const post = (message: unknown): void => proxyIn(frame.current)?.postMessage(message, origin);
    live.current.post = post;
    // The model context is one thing the app sets (each `ui/update-model-context` replaces it); the rest pile up, the last five.
    const tell = (next: Said): void =>
      setSaid((before) => [...before.filter((s) => next.kind !== "context" || s.kind !== "context").slice(-4), next]);
    const onMessage = (event: MessageEvent<unknown>): void => {
      // Only the proxy inside the frame this component made, on its origin: never the app itself, nor anything else.
      if (
        event.source === null ||
        event.source !== proxyIn(frame.current) ||
        event.origin !== origin ||
        !isMessage(event.data)
      )
        return;
      const message = event.data;
      if (message.method === "ui/notifications/sandbox-proxy-ready") {
        post({
          jsonrpc: "2.0",
          method: "ui/notifications/sandbox-resource-ready",
          params: { html: app.html, csp: app.csp, permissions: host.permissions() },
        });
        return;
      }
      if (message.method === "ui/notifications/sandbox-app-navigated") {
        setProblem(
          "it navigated away from its document, to a page that is not the app: the frame was closed, and nothing that page sent reached the inspector",
        );
        void api("/api/app/close", { view: app.view });
        return;
      }
      const name = message.params?.["name"];
      if (
        message.method === "tools/call" &&
        message.id !== undefined &&
        typeof name === "string" &&
        mustAsk(live.current.toolNamed(app.server, name), live.current.askAll)
      ) {
        const id = message.id;
        const call: PendingCall = {
          tool: name,
          args: message.params?.["arguments"] ?? {},
          answer: (allowed) => {
            setPending((all) => all.filter((c) => c !== call));
            if (allowed) relay(message);
            else
              post({ jsonrpc: "2.0", id, error: { code: -32000, message: `the user refused the call of "${name}"` } });
          },
        };
        setPending((all) => [...all, call]);
        return;
      }
      relay(message);
    };
    const relay = (message: Message): void => {
      void sendAppMessage(app.view, message)
        .then((served) => {
          if (message.id !== undefined && message.method !== undefined) {
            post(served.response ?? { jsonrpc: "2.0", id: message.id, ...answerHere(message, app, tell, host) });
            return;
          }
          if (message.method === "ui/notifications/initialized") {
            // Nothing goes to the app before it says it is initialized; then its input (the call may
            // still run: the inspector has the whole input at once, so no tool-input-partial), and
            // its result once the call ends.
            post({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: args } });
            setInitialized(true);
            deliver();
          } else if (message.method === "ui/notifications/size-changed") {
            const h = Number(message.params?.["height"]);
            if (Number.isFinite(h) && h > 0) setHeight(Math.min(MAX_HEIGHT, Math.ceil(h)));
          }
        })
        .catch((error: Error) => {
          if (error instanceof AppMessageTooBig)
            setRefused(`A ${message.method ?? "message"} it sent was not relayed: ${error.message}.`);
          if (message.id !== undefined && message.method !== undefined)
            post({
              jsonrpc: "2.0",
              id: message.id,
              error: { code: error instanceof AppMessageTooBig ? error.code : -32603, message: error.message },
            });
        });
    };
    addEventListener("message", onMessage);
    return () => removeEventListener("message", onMessage);
  }, [app]);

  const decide = (allowed: boolean): void => {
    if (!app) return;
    remember(appKey(app.server, app.uri), allowed);
    setGranted(allowed ? app.permissions : []);
  };
  if (problem)
    return (
      <div class="app-view">
        <div class="banner error">
          The app of {tool.tool} cannot be shown: {problem}
        </div>
      </div>
    );
  if (!app) return <div class="app-view muted">Loading the app…</div>;
  return (
    <div
      class={`${app.prefersBorder === false ? "app-view borderless" : "app-view"} mode-${mode}`}
      data-view={app.view}
      data-mode={mode}
      data-tool={tool.name}
      data-kept={kept ? "true" : "false"}
    >
      <div class="app-head">
        <span class="tag">MCP App</span> <strong class="app-tool">{tool.tool}</strong> <code>{app.uri}</code>
        <span class="muted app-limits"> {limits(app.csp)}</span>
        {onKeep ? (
          <button
            type="button"
            class={kept ? "small primary" : "small"}
            name="app-keep"
            aria-pressed={kept}
            title="kept open, another call's app opens beside it"
            onClick={() => onKeep(!kept)}
          >
            {kept ? "kept open" : "keep open"}
          </button>
        ) : null}
        {kept && onClose ? (
          <button type="button" class="small" name="app-close" onClick={onClose}>
            close
          </button>
        ) : null}
        {mode === "inline" ? null : (
          <button type="button" class="small" name="app-inline" onClick={() => host.requestMode("inline")}>
            back inline
          </button>
        )}
      </div>
      {app.ignored.length ? (
        <div class="muted app-ignored">Left out of its _meta.ui: {app.ignored.join("; ")}</div>
      ) : null}
      {granted === undefined ? (
        <div class="app-permissions" data-ask={app.permissions.join(" ")}>
          The app asks to use: <strong>{app.permissions.join(", ")}</strong>. Allow it (for this app, until this tab
          closes)?{" "}
          <button type="button" class="small primary" name="app-allow" onClick={() => decide(true)}>
            allow
          </button>{" "}
          <button type="button" class="small" name="app-deny" onClick={() => decide(false)}>
            deny
          </button>
        </div>
      ) : (
        <>
          {app.permissions.length ? (
            <div class="muted app-granted" data-granted={granted.join(" ")}>
              {granted.length ? `Allowed: ${granted.join(", ")}` : `Denied: ${app.permissions.join(", ")}`} (remembered
              for this tab)
            </div>
          ) : null}
          <iframe
            ref={frame}
            class="app-frame"
            title={`${tool.tool} app`}
            src={granted.length ? `${app.frame}?allow=${granted.join(",")}` : app.frame}
            sandbox="allow-scripts allow-same-origin allow-forms"
            allow={frameAllow(granted, new URL(app.frame).origin)}
            referrerpolicy="no-referrer"
            style={mode === "inline" ? { height: `${height}px` } : undefined}
          />
        </>
      )}
      {app && granted !== undefined ? <AppConfirm askAll={askAll} onAskAll={setAskAll} pending={pending[0]} /> : null}
      {refused ? <div class="muted app-refused">{refused}</div> : null}
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
