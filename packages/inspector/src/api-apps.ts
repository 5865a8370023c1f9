// The inspector's API for MCP Apps (part of the API that api.ts documents): a tool's app opened,
// the messages it sends, and what the page gives its sandbox.

/** `POST /api/app/open`: the app of a tool with a UI. */
export interface AppOpenRequest {
  /** A {@link ToolRow.name} whose tool has a {@link ToolRow.ui}. */
  tool: string;
  /** The page's id (as in its event stream): the app's origin ends when that page is gone. */
  page?: string | undefined;
}

/** The origins an app may use, as its resource declared them (checked: origins only). */
export interface AppCsp {
  connectDomains?: string[] | undefined;
  resourceDomains?: string[] | undefined;
  frameDomains?: string[] | undefined;
  baseUriDomains?: string[] | undefined;
}

/** The answer to `POST /api/app/open`: what the page gives the sandbox proxy, and what the app is told. */
export interface AppOpenAnswer {
  /** This rendering's id, which {@link AppMessageRequest.view} takes. */
  view: string;
  server: string;
  uri: string;
  html: string;
  csp: AppCsp;
  prefersBorder?: boolean | undefined;
  /** What of the resource's `_meta.ui` was left out, and why. */
  ignored: string[];
  /**
   * The browser features the resource asks for (`_meta.ui.permissions`), as Permissions Policy
   * names them: `camera`, `microphone`, `geolocation`, `clipboard-write`. None is granted until the
   * page's user allows it.
   */
  permissions: string[];
  /** The sandbox proxy's page, on an origin of its own (the app's). */
  sandbox: string;
  /**
   * The page the inspector frames, on another origin of its own: it frames {@link sandbox} and
   * lets its frame hold nothing of another origin (the app, which can navigate the proxy's frame,
   * cannot take it to another page of this machine).
   */
  frame: string;
  /** The tool as the server listed it (the app's `hostContext.toolInfo.tool`). */
  tool: Record<string, unknown>;
  /** The host the app is told it runs in (`hostInfo`). */
  host: { name: string; version: string };
}

/**
 * The largest message an app may send, in characters of its JSON (16 Mi). The API reads bodies of
 * at most 1 MB, so the page relays a bigger message in parts ({@link AppMessagePart}); one over
 * this limit is refused (a request gets a JSON-RPC error saying its size and this limit), so that
 * an app cannot make the inspector hold unbounded text.
 */
export const MAX_APP_MESSAGE_CHARS = 16 * 1024 * 1024;

/** The characters of JSON in one part of an app message (128 Ki: under 1 MB as a body, however escaped and encoded). */
export const APP_MESSAGE_PART_CHARS = 128 * 1024;

/** One part of an app message too big for one body: the parts' `data`, in order, are the message's JSON. */
export interface AppMessagePart {
  /** The same for every part of one message (chosen by the page). */
  id: string;
  /** 0, 1, … `count - 1`, sent in order. */
  index: number;
  count: number;
  /** At most {@link APP_MESSAGE_PART_CHARS} characters. */
  data: string;
}

/** `POST /api/app/message`: one JSON-RPC message an app sent, whole (`message`) or one part of it (`part`). */
export interface AppMessageRequest {
  view: string;
  message?: unknown;
  part?: AppMessagePart | undefined;
}

/** The answer to `POST /api/app/message`: the JSON-RPC response to relay to the app, when the inspector's server answered the message (`tools/call`, `resources/read`, `ping`); none for messages the page handles. */
export interface AppMessageAnswer {
  response?:
    | {
        jsonrpc: "2.0";
        id: string | number;
        result?: unknown;
        error?: { code: number; message: string; data?: unknown };
      }
    | undefined;
}
