// An app's messages to the inspector's server. The API reads bodies of at most 1 MB, so a message
// bigger than one part goes in parts, in order, one message of an app at a time; one over the
// limit is not sent at all, and the app (for a request) and the page's user are told why.
import { APP_MESSAGE_PART_CHARS, MAX_APP_MESSAGE_CHARS } from "../src/api-apps.js";
import type { AppMessageAnswer } from "../src/api.js";
import { api } from "./client.js";

/** A message over {@link MAX_APP_MESSAGE_CHARS}: never sent. */
export class AppMessageTooBig extends Error {
  /** JSON-RPC "invalid request", for the app's request. */
  readonly code = -32600;
  constructor(readonly chars: number) {
    super(
      `the message is ${(chars / 1024 / 1024).toFixed(1)} MiB of JSON; the inspector relays at most ${MAX_APP_MESSAGE_CHARS / 1024 / 1024} MiB from an app (it holds each message whole, to log it and run it)`,
    );
  }
}

/** Each app's big message under way (its parts must not mix with another's). */
const sending = new Map<string, Promise<unknown>>();

/** Sends one message the app sent: whole when it is small, else in parts; rejects with {@link AppMessageTooBig} over the limit. */
export function sendAppMessage(view: string, message: unknown): Promise<AppMessageAnswer> {
  const json = JSON.stringify(message);
  if (json.length <= APP_MESSAGE_PART_CHARS) return api<AppMessageAnswer>("/api/app/message", { view, message });
  if (json.length > MAX_APP_MESSAGE_CHARS) return Promise.reject(new AppMessageTooBig(json.length));
  const send = async (): Promise<AppMessageAnswer> => {
    const id = crypto.randomUUID();
    const count = Math.ceil(json.length / APP_MESSAGE_PART_CHARS);
    let answer: AppMessageAnswer = {};
    for (let index = 0; index < count; index++) {
      const data = json.slice(index * APP_MESSAGE_PART_CHARS, (index + 1) * APP_MESSAGE_PART_CHARS);
      answer = await api<AppMessageAnswer>("/api/app/message", { view, part: { id, index, count, data } });
    }
    return answer;
  };
  const next = (sending.get(view) ?? Promise.resolve()).then(send, send);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  sending.set(view, settled);
  void settled.then(() => {
    if (sending.get(view) === settled) sending.delete(view);
  });
  return next;
}
