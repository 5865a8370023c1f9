// The page's side of the API (see ../api.ts): every request carries the token from the page's URL.
import { TOKEN_HEADER, type ApiError, type InspectorEvent } from "../src/api.js";

const token = new URLSearchParams(location.search).get("token") ?? "";
/** This page's id, in its event stream and its apps: the server ends a page's apps when its stream is gone. */
export const PAGE = crypto.randomUUID();

/** A failed API request: the server's message and code. */
export class ApiFailure extends Error {
  readonly code: string | number | undefined;
  constructor(error: ApiError) {
    super(error.message);
    this.code = error.code;
  }
}

/** GET when there is no body, POST with a JSON body otherwise. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { [TOKEN_HEADER]: token };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiFailure({ message: `${path}: HTTP ${response.status} ${text.slice(0, 200)}` });
  }
  if (!response.ok) throw new ApiFailure(json as ApiError);
  return json as T;
}

/** The live event stream; reconnects by itself (EventSource does). */
export function subscribeEvents(onEvent: (event: InspectorEvent) => void, onOpen: (open: boolean) => void): () => void {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}&page=${PAGE}`);
  source.onmessage = (message: MessageEvent<string>) => onEvent(JSON.parse(message.data) as InspectorEvent);
  source.onopen = () => onOpen(true);
  source.onerror = () => onOpen(false);
  return () => source.close();
}

/** A fresh id for a call (the page names its calls so it can cancel them before they answer). */
export function newId(): string {
  return crypto.randomUUID();
}
