import { readFileSync } from "node:fs";

export type {
  ApiError,
  CallAnswer,
  CallRequest,
  CompleteRequestBody,
  ContentBlock,
  Dialog,
  DialogAnswer,
  InspectedServer,
  InspectorEvent,
  InspectorState,
  JsonSchema,
  LogEntry,
  PromptAnswer,
  PromptRow,
  ReadAnswer,
  ResourceContents,
  ResourceRow,
  ServerRow,
  TaskRow,
  ToolRow,
} from "./api.js";
export { LOG_LEVELS, TOKEN_HEADER } from "./api.js";

let assets: { js: string; css: string } | undefined;

function load(): { js: string; css: string } {
  assets ??= {
    js: readFileSync(new URL("./web/app.js", import.meta.url), "utf8"),
    css: readFileSync(new URL("./web/app.css", import.meta.url), "utf8"),
  };
  return assets;
}

/**
 * The inspector page: one HTML document with its script and styles inline, so the page needs no
 * second request (and so none without the token). `nonce` is the CSP nonce the server sends in
 * `Content-Security-Policy` for this answer.
 */
export function inspectorPage(options: { nonce: string; title?: string }): string {
  const { js, css } = load();
  const title = escapeHtml(options.title ?? "mcp inspect");
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
