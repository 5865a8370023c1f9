import { readFileSync } from "node:fs";

// The page and the sandbox proxy page, each one HTML answer with its bundle (dist/web, made by
// scripts/bundle.mjs) inline.

let assets: { js: string; css: string; sandbox: string } | undefined;

function load(): { js: string; css: string; sandbox: string } {
  assets ??= {
    js: readFileSync(new URL("../dist/web/app.js", import.meta.url), "utf8"),
    css: readFileSync(new URL("../dist/web/app.css", import.meta.url), "utf8"),
    sandbox: readFileSync(new URL("../dist/web/sandbox.js", import.meta.url), "utf8"),
  };
  return assets;
}

/**
 * The MCP Apps sandbox proxy page, served on an origin other than the inspector's: it renders one
 * app in an inner iframe (sandboxed, on this page's origin, under the app's CSP) and passes messages
 * between it (that origin only) and the inspector page at `hostOrigin` only. Its script is inline: the page must not
 * restrict scripts itself, as the app's document inherits its policy (the app's own is set inside).
 */
export function sandboxPage(options: { hostOrigin: string }): string {
  const { sandbox } = load();
  if (/<\/script/i.test(sandbox)) throw new Error("sandbox bundle contains </script");
  return `<!doctype html>
<html lang="en" data-host="${escapeHtml(options.hostOrigin)}">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>MCP App sandbox</title>
<style>html, body { margin: 0; height: 100%; overflow: hidden; background: transparent; } iframe { border: 0; width: 100%; height: 100%; display: block; }</style>
</head>
<body>
<script type="module">${sandbox}</script>
</body>
</html>
`;
}

/**
 * The inspector page: one HTML document with its script and styles inline, so the page needs no
 * second request (and so none without the token). `nonce` is the CSP nonce the server sends in
 * `Content-Security-Policy` for this answer.
 */
export function inspectorPage(options: { nonce: string; title?: string | undefined }): string {
  const { js, css } = load();
  const title = escapeHtml(options.title ?? "MCP inspector");
  // `</script` cannot occur in the bundle's strings unescaped; esbuild escapes it, and we check.
  if (/<\/script/i.test(js)) throw new Error("inspector bundle contains </script");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<style nonce="${options.nonce}">${css}</style>
</head>
<body>
<div id="app"></div>
<script nonce="${options.nonce}" type="module">${js}</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
