// The sandbox proxy (MCP Apps, SEP-1865 "Sandbox proxy"): the page `mcp inspect` serves on an origin
// of its own and frames in the inspector. It tells the inspector it is ready, takes the app's HTML
// once (`ui/notifications/sandbox-resource-ready`), renders it in a sandboxed inner iframe under the
// Content-Security-Policy built from the resource's declared origins, and passes every other
// message between the inspector and the app, checking who sent it and from which origin, both ways.
// The app's frame may navigate itself to an origin its resource declares for frames: the page there
// is not the app, runs outside its policy, and so loses the bridge (removed, the host told). The app
// shares this page's origin — one `mcp inspect` gives each app alone, never the inspector's — as
// apps expect of their parent (the Vue example reads properties of `window.parent`, which a
// cross-origin parent refuses). The host is this page's top (the inspector): `mcp inspect` frames this
// page inside a script-less frame page of another origin, which keeps the frame on this origin.
import { viewDocument } from "../src/app-csp.js";

const host = document.documentElement.dataset["host"] ?? "";
const SANDBOX_METHOD = "ui/notifications/sandbox-";
/** The app's origin: its document is this page's `srcdoc` child, allowed the same origin. */
const own = location.origin;
let inner: HTMLIFrameElement | undefined;
/** SEP-1865's permission names and the Permissions Policy features they map to. */
const FEATURES = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
} as const;
/** Set once the app's frame holds another document than the app's: nothing passes to or from it again. */
let cut = false;

function isMessage(data: unknown): data is { jsonrpc: "2.0"; method?: unknown; params?: unknown } {
  return typeof data === "object" && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

function load(params: unknown): void {
  if (inner) return; // once: a second resource (from anyone) is ignored
  const { html, csp, permissions } = (params ?? {}) as { html?: unknown; csp?: unknown; permissions?: unknown };
  if (typeof html !== "string") return;
  inner = document.createElement("iframe");
  inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  // The features the host granted (the spec's names, mapped to Permissions Policy's), delegated to
  // the app; the host's frame and the frame page delegate only these to this page anyway.
  const granted = Object.entries(FEATURES)
    .filter(
      ([name]) =>
        typeof permissions === "object" &&
        permissions !== null &&
        typeof (permissions as Record<string, unknown>)[name] === "object",
    )
    .map(([, feature]) => feature);
  if (granted.length) inner.setAttribute("allow", granted.join("; "));
  inner.setAttribute("referrerpolicy", "no-referrer");
  inner.title = "MCP App";
  inner.srcdoc = viewDocument(html, csp);
  inner.addEventListener("load", () => {
    if (isApp(inner)) return;
    cut = true;
    inner?.remove();
    top?.postMessage({ jsonrpc: "2.0", method: `${SANDBOX_METHOD}app-navigated`, params: {} }, host);
  });
  document.body.append(inner);
}

/** Whether the frame still holds the app's own document (a reload keeps it; a navigation does not). */
function isApp(frame: HTMLIFrameElement | undefined): boolean {
  try {
    return frame?.contentWindow?.location.href === "about:srcdoc";
  } catch {
    return false; // another origin's page
  }
}

addEventListener("message", (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (!isMessage(data)) return;
  const method = typeof data.method === "string" ? data.method : "";
  if (event.source === top && event.origin === host) {
    if (method === `${SANDBOX_METHOD}resource-ready`) load(data.params);
    // Targeted at the app's origin: a page another origin put in its frame receives nothing.
    else if (!method.startsWith(SANDBOX_METHOD) && !cut) inner?.contentWindow?.postMessage(data, own);
    return;
  }
  if (
    cut ||
    !inner ||
    event.source !== inner.contentWindow ||
    event.origin !== own ||
    method.startsWith(SANDBOX_METHOD)
  )
    return;
  top?.postMessage(data, host);
});

top?.postMessage({ jsonrpc: "2.0", method: `${SANDBOX_METHOD}proxy-ready`, params: {} }, host);
