// The sandbox proxy (MCP Apps, SEP-1865 "Sandbox proxy"): the page `mcp inspect` serves on an origin
// of its own and frames in the inspector. It tells the inspector it is ready, takes the app's HTML
// once (`ui/notifications/sandbox-resource-ready`), renders it in a sandboxed inner iframe under the
// Content-Security-Policy built from the resource's declared origins, and passes every other
// message between the inspector and the app, checking who sent it. The app shares this page's
// origin — one `mcp inspect` gives each app alone, never the inspector's — as apps expect of their
// parent (the Vue example reads properties of `window.parent`, which a cross-origin parent refuses).
import { viewDocument } from "../src/app-csp.js";

const host = document.documentElement.dataset["host"] ?? "";
const SANDBOX_METHOD = "ui/notifications/sandbox-";
let inner: HTMLIFrameElement | undefined;

function isMessage(data: unknown): data is { jsonrpc: "2.0"; method?: unknown; params?: unknown } {
  return typeof data === "object" && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

function load(params: unknown): void {
  if (inner) return; // once: a second resource (from anyone) is ignored
  const { html, csp } = (params ?? {}) as { html?: unknown; csp?: unknown };
  if (typeof html !== "string") return;
  inner = document.createElement("iframe");
  inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  inner.setAttribute("referrerpolicy", "no-referrer");
  inner.title = "MCP App";
  inner.srcdoc = viewDocument(html, csp);
  document.body.append(inner);
}

addEventListener("message", (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (!isMessage(data)) return;
  const method = typeof data.method === "string" ? data.method : "";
  if (event.source === parent && event.origin === host) {
    if (method === `${SANDBOX_METHOD}resource-ready`) load(data.params);
    else if (!method.startsWith(SANDBOX_METHOD)) inner?.contentWindow?.postMessage(data, "*"); // an opaque origin has no name to target
    return;
  }
  if (inner && event.source === inner.contentWindow && !method.startsWith(SANDBOX_METHOD)) parent.postMessage(data, host);
});

parent.postMessage({ jsonrpc: "2.0", method: `${SANDBOX_METHOD}proxy-ready`, params: {} }, host);
