// The browser features an MCP App asks for (its resource's `_meta.ui.permissions`: camera,
// microphone, geolocation, clipboard write), asked of the page's user once per app and remembered
// for the browser tab's session; the app's frame is allowed only what was granted.

/**
 * Browser features an app's frame may not use unless granted: named so (a cross-origin frame lacks
 * most of them by default, but `'none'` also holds for features whose default is `*`).
 */
const DENIED = [
  "camera",
  "microphone",
  "geolocation",
  "display-capture",
  "clipboard-read",
  "clipboard-write",
  "usb",
  "serial",
  "hid",
  "payment",
  "publickey-credentials-get",
  "screen-wake-lock",
  "midi",
];

/** Permissions Policy features and SEP-1865's names for them. */
const SPEC_NAMES: Record<string, string> = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  "clipboard-write": "clipboardWrite",
};

const KEY = "mcp-inspector-app-permissions";

function load(): Record<string, boolean> {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "{}");
    return typeof value === "object" && value !== null ? (value as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

/** An app's name for the memory: its server and resource. */
export function appKey(server: string, uri: string): string {
  return `${server} ${uri}`;
}

/** The user's answer for the app `key` this session: true (allowed), false (denied), or undefined (not asked yet). */
export function remembered(key: string): boolean | undefined {
  return load()[key];
}

export function remember(key: string, allowed: boolean): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...load(), [key]: allowed }));
  } catch {
    // Storage refused (a private window's quota): the answer holds for this app only.
  }
}

/** The frame's `allow` attribute: the `granted` features for the frame's origin, every other one `'none'`. */
export function frameAllow(granted: readonly string[], frameOrigin: string): string {
  return DENIED.map((feature) => (granted.includes(feature) ? `${feature} ${frameOrigin}` : `${feature} 'none'`)).join(
    "; ",
  );
}

/** The `granted` features under SEP-1865's names (`hostCapabilities.sandbox.permissions`, the proxy's `permissions`). */
export function specPermissions(granted: readonly string[]): Record<string, object> {
  const out: Record<string, object> = {};
  for (const feature of granted) {
    const name = SPEC_NAMES[feature];
    if (name) out[name] = {};
  }
  return out;
}
