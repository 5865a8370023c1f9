// The Content-Security-Policy of an MCP App's document, from the origins its resource declares
// (`_meta.ui.csp`), as SEP-1865 builds it; with none declared, its restrictive default. The app's
// document carries it (a <meta>), and so does its sandbox proxy's page (the header `mcp inspect`
// sends), whose window the app can reach: it shares the proxy's origin.

/** An origin as a CSP source: nothing that could end a directive or add a keyword. */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/i;

function sources(csp: unknown, key: string): string {
  const list = typeof csp === "object" && csp !== null ? (csp as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list)
    ? list.filter((entry): entry is string => typeof entry === "string" && SOURCE.test(entry)).join(" ")
    : "";
}

/**
 * The policy for an app that declared `csp` (`_meta.ui.csp`; origins that are not origins are
 * dropped). Without declarations it is the specification's restrictive default, plus what grants no
 * origin: `blob:` and `data:` documents the app made itself (workers, fallback scripts, media,
 * fonts), as the reference host allows. `'unsafe-eval'` stays out: the default does not grant it.
 */
export function appPolicy(csp: unknown): string {
  const resources = sources(csp, "resourceDomains");
  const connect = sources(csp, "connectDomains");
  const frames = sources(csp, "frameDomains");
  const base = sources(csp, "baseUriDomains");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' blob: data: ${resources}`,
    `style-src 'self' 'unsafe-inline' blob: data: ${resources}`,
    `img-src 'self' data: blob: ${resources}`,
    `font-src 'self' data: blob: ${resources}`,
    `media-src 'self' data: blob: ${resources}`,
    `worker-src 'self' blob: ${resources}`,
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frames || "'none'"}`,
    "object-src 'none'",
    `base-uri ${base || "'self'"}`,
    "form-action 'none'",
  ]
    .map((directive) => directive.trim())
    .join("; ");
}

/**
 * The app's HTML with its policy first: a `<meta>` the parser meets before anything of the app's
 * (whose own policies can only add restrictions), after its doctype when it has one (so the
 * document keeps its standards mode).
 */
export function viewDocument(html: string, csp: unknown): string {
  const policy = appPolicy(csp).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? "";
  return `${doctype}${meta}${html.slice(doctype.length)}`;
}
