// MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, stable 2026-01-26): what a client
// declares to render them, which tool has a UI, and its `ui://` resource read with its `_meta`.
import type { MCPTransport, RequestOptions } from "@mcp/jsonrpc";
import { UiResourceError } from "./errors.js";
import type { MCPServerConnection } from "./connect.js";
import { readResource } from "./methods.js";

export { UiResourceError };

/** The extension's identifier, the key under `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * What a host that renders MCP Apps declares: pass it as `connectToServer`'s `extensions` (servers
 * may offer their UI tools only to a client that declares it).
 */
export function mcpAppsExtension(): Record<string, { mimeTypes: string[] }> {
  return { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } };
}

/** Who may call a tool with a UI: the model (the agent's tool list), the app (its own server's tools), or both. */
export type UiVisibility = "model" | "app";

/** A tool's UI, from its `_meta.ui`. */
export interface ToolUi {
  /** The `ui://` resource holding its HTML. */
  resourceUri: string;
  /** Default `["model", "app"]`. */
  visibility: UiVisibility[];
}

/**
 * The UI of a tool, or undefined when it has none: `_meta.ui.resourceUri` (or the deprecated
 * `_meta["ui/resourceUri"]`), which must be a `ui://` URI, and `_meta.ui.visibility`.
 */
export function toolUi(tool: object): ToolUi | undefined {
  const meta = (tool as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const ui = (meta as { ui?: unknown }).ui;
  const block = typeof ui === "object" && ui !== null ? (ui as { resourceUri?: unknown; visibility?: unknown }) : {};
  const uri =
    typeof block.resourceUri === "string" ? block.resourceUri : (meta as Record<string, unknown>)["ui/resourceUri"];
  if (typeof uri !== "string" || !uri.startsWith("ui://")) return undefined;
  const visibility = Array.isArray(block.visibility)
    ? block.visibility.filter((v): v is UiVisibility => v === "model" || v === "app")
    : undefined;
  return { resourceUri: uri, visibility: visibility ?? ["model", "app"] };
}

/** The origins a UI may use (`_meta.ui.csp`), each list mapped to CSP directives by the host. */
export interface UiCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[] | undefined;
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. */
  resourceDomains?: string[] | undefined;
  /** `frame-src`: nested iframes. */
  frameDomains?: string[] | undefined;
  /** `base-uri`. */
  baseUriDomains?: string[] | undefined;
}

/** Browser features a UI asks for (`_meta.ui.permissions`); a host may grant them. */
export interface UiPermissions {
  camera?: object | undefined;
  microphone?: object | undefined;
  geolocation?: object | undefined;
  clipboardWrite?: object | undefined;
}

/** A UI resource's `_meta.ui`, checked. */
export interface UiResourceMeta {
  csp?: UiCsp | undefined;
  permissions?: UiPermissions | undefined;
  /** A dedicated origin the server asks for (its format is the host's). */
  domain?: string | undefined;
  /** Whether the host should draw a border and background around it. */
  prefersBorder?: boolean | undefined;
}

/** A UI resource read and checked: its HTML and what it declares. */
export interface UiResource {
  uri: string;
  mimeType: string;
  html: string;
  meta: UiResourceMeta;
  /** Declared values left out because they are not what the extension allows (each says which and why): the UI gets less, never more. */
  ignored: string[];
}

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
/** An origin as a CSP source: a scheme, a host (a leading `*.` allowed), an optional port and path; nothing that could end the directive. */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/i;

function decodeBase64(blob: string): string {
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** `_meta.ui` of a resource's contents, with every value that is not allowed left out and named in `ignored`. */
export function uiResourceMeta(meta: unknown, ignored: string[] = []): UiResourceMeta {
  const ui = typeof meta === "object" && meta !== null ? (meta as { ui?: unknown }).ui : undefined;
  if (typeof ui !== "object" || ui === null) return {};
  const given = ui as Record<string, unknown>;
  const out: UiResourceMeta = {};
  if (typeof given["csp"] === "object" && given["csp"] !== null) {
    const csp: UiCsp = {};
    for (const key of CSP_KEYS) {
      const list = (given["csp"] as Record<string, unknown>)[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        ignored.push(`csp.${key}: not a list`);
        continue;
      }
      csp[key] = list.filter((entry): entry is string => {
        const ok = typeof entry === "string" && SOURCE.test(entry);
        if (!ok) ignored.push(`csp.${key}: ${JSON.stringify(entry)} is not an origin (scheme://host[:port])`);
        return ok;
      });
    }
    out.csp = csp;
  }
  if (typeof given["permissions"] === "object" && given["permissions"] !== null) {
    const permissions: UiPermissions = {};
    for (const key of PERMISSIONS)
      if (typeof (given["permissions"] as Record<string, unknown>)[key] === "object") permissions[key] = {};
    out.permissions = permissions;
  }
  if (typeof given["domain"] === "string") out.domain = given["domain"];
  if (typeof given["prefersBorder"] === "boolean") out.prefersBorder = given["prefersBorder"];
  return out;
}

/**
 * Reads a tool's `ui://` resource (`resources/read`) and checks it: the URI is a `ui://` one, the
 * answer has an entry for it with the MCP App MIME type and HTML as `text` or base64 `blob`.
 * `_meta.ui` (CSP origins, permissions, domain, border) is checked value by value: what the
 * extension does not allow is left out and listed in `ignored`. Throws {@link UiResourceError}
 * naming the server, the URI and what was wrong.
 */
export async function readUiResource(
  connection: MCPServerConnection<MCPTransport>,
  uri: string,
  options?: RequestOptions,
): Promise<UiResource> {
  if (!uri.startsWith("ui://")) throw new UiResourceError(connection.name, uri, "the URI is not a ui:// one");
  const result = await readResource(connection, uri, options);
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const entry = contents.find((item) => item && item.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!entry)
    throw new UiResourceError(connection.name, uri, `the answer has no contents for it (${contents.length} entries)`);
  const mimeType = typeof entry.mimeType === "string" ? entry.mimeType : "";
  if (mimeType.replace(/\s+/g, "").toLowerCase() !== MCP_APP_MIME_TYPE)
    throw new UiResourceError(
      connection.name,
      uri,
      `its MIME type is ${JSON.stringify(mimeType)}, not "${MCP_APP_MIME_TYPE}"`,
    );
  let html: string;
  if ("text" in entry && typeof entry.text === "string") html = entry.text;
  else if ("blob" in entry && typeof entry.blob === "string") {
    try {
      html = decodeBase64(entry.blob);
    } catch {
      throw new UiResourceError(connection.name, uri, "its blob is not base64");
    }
  } else throw new UiResourceError(connection.name, uri, "it has neither text nor blob");
  const ignored: string[] = [];
  const meta = uiResourceMeta(entry._meta, ignored);
  return { uri, mimeType: MCP_APP_MIME_TYPE, html, meta, ignored };
}
