// What the inspector, as an MCP Apps host, tells an app about where it runs (SEP-1865 "Host Context"):
// the theme, the page's style variables under the spec's standard names, the display mode and the
// container's dimensions. Sent whole in the `ui/initialize` answer, and in part with
// `ui/notifications/host-context-changed` when one of them changes.

/** The display modes of the spec; the inspector offers all three. */
export const DISPLAY_MODES = ["inline", "fullscreen", "pip"] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number];

/** The tallest an app may make itself inline, in pixels. */
export const MAX_HEIGHT = 1200;
/** The picture-in-picture frame's size, in pixels. */
export const PIP = { width: 420, height: 320 } as const;

/** The spec's style variables, each from the page's own variable. */
const STYLE_VARIABLES: Record<string, string> = {
  "--color-background-primary": "--panel",
  "--color-background-secondary": "--bg",
  "--color-text-primary": "--fg",
  "--color-text-secondary": "--muted",
  "--color-text-danger": "--bad",
  "--color-text-success": "--ok",
  "--color-text-warning": "--warn",
  "--color-border-primary": "--line",
  "--color-ring-primary": "--accent",
};

export type Theme = "light" | "dark";

export function theme(): Theme {
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** `hostContext.styles`: the page's colours and fonts, as they are now (the theme changes them). */
export function styles(): { variables: Record<string, string> } {
  const computed = getComputedStyle(document.documentElement);
  const variables: Record<string, string> = {};
  for (const [name, own] of Object.entries(STYLE_VARIABLES)) {
    const value = computed.getPropertyValue(own).trim();
    if (value) variables[name] = value;
  }
  variables["--font-sans"] = computed.fontFamily;
  variables["--font-mono"] = "ui-monospace, SFMono-Regular, Menlo, monospace";
  variables["--border-radius-md"] = "6px";
  return { variables };
}

/** `hostContext.containerDimensions` for `mode`: inline the width is fixed and the height the app's, up to {@link MAX_HEIGHT}; fullscreen and pip fix both. */
export function containerDimensions(
  mode: DisplayMode,
  width: number,
): { width: number; maxHeight: number } | { width: number; height: number } {
  if (mode === "fullscreen") return { width: innerWidth, height: innerHeight };
  if (mode === "pip") return { ...PIP };
  return { width: Math.round(width), maxHeight: MAX_HEIGHT };
}

/** The mode a `ui/request-display-mode` gets: the one asked for when the host has it and the app declared it (or declared none), else the current one. */
export function modeFor(requested: unknown, current: DisplayMode, declared: unknown): DisplayMode {
  if (!(DISPLAY_MODES as readonly unknown[]).includes(requested)) return current;
  if (Array.isArray(declared) && !declared.includes(requested)) return current;
  return requested as DisplayMode;
}
