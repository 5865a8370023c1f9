// A raw 2026-07-28 `tools/call` over HTTP, as the gateway's tests send it by hand: the headers the
// revision asks for (`Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), the envelope in `_meta`, and
// — for a caller that can be asked — the retry loop: each `input_required` round's questions
// answered and the call sent again with `inputResponses` and `requestState`, to the end.

type Message = Record<string, unknown>;

/** An embedded question of an `input_required` round. */
export interface Question {
  method: string;
  params: Message;
}

/** One raw call: where, as whom (`headers`: authorization or an API key, a traceparent, …), what. */
export interface RawCall {
  url: string;
  headers?: Record<string, string> | undefined;
  name: string;
  /** The tool's arguments; none sent when undefined. */
  args?: unknown;
  /** The JSON-RPC id (the round's number, in {@link callRounds}). Default 1. */
  id?: string | number | undefined;
  /** The capabilities the envelope declares. Default none (`{}`). */
  capabilities?: unknown;
  clientInfo?: { name: string; version: string } | undefined;
  /** More of `_meta`: a progress token, a log level (`io.modelcontextprotocol/logLevel`). */
  meta?: Message | undefined;
}

/** What came back for one request: status, content type, `Retry-After` and the body as sent. */
export interface RawAnswer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  text: string;
}

/** The envelope of a 2026-07-28 request's `_meta`. */
export function envelope(capabilities: unknown = {}, clientInfo = { name: "raw", version: "1" }): Message {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": clientInfo,
  };
}

/** Sends one raw `tools/call` (with `retry`'s `inputResponses` and `requestState` when given) and reads its whole answer. */
export async function postCall(call: RawCall, retry: Message = {}): Promise<RawAnswer> {
  const response = await fetch(call.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": call.name,
      ...call.headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: call.id ?? 1,
      method: "tools/call",
      params: {
        name: call.name,
        ...(call.args === undefined ? {} : { arguments: call.args }),
        _meta: { ...envelope(call.capabilities, call.clientInfo), ...call.meta },
        ...retry,
      },
    }),
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    retryAfter: response.headers.get("retry-after"),
    text: await response.text(),
  };
}

/** The JSON-RPC messages of an answer: its JSON body, or each `data:` of its event stream, in order. */
export function messagesOf(answer: RawAnswer): Message[] {
  if (!(answer.contentType ?? "").includes("text/event-stream")) return [JSON.parse(answer.text) as Message];
  return answer.text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Message);
}

/** One call, round after round, to its end. */
export interface Rounds {
  /** Every round's answer, in order. */
  answers: RawAnswer[];
  /** The questions asked, in order, with the round's number. */
  asked: (Question & { round: number })[];
  /** The last round's JSON-RPC response (a result or an error). */
  last: Message;
}

/**
 * Sends `call` as round 1, 2, … (each round's id its number): while the answer is `input_required`,
 * each question is answered with `answer(question)` and the call sent again with the answers and
 * the state handed out. Throws when still `input_required` after `maxRounds`.
 */
export async function callRounds(
  call: RawCall,
  answer: (question: Question) => unknown,
  maxRounds: number,
): Promise<Rounds> {
  const answers: RawAnswer[] = [];
  const asked: Rounds["asked"] = [];
  let retry: Message = {};
  for (let round = 1; round <= maxRounds; round++) {
    const got = await postCall({ ...call, id: round }, retry);
    answers.push(got);
    const last = messagesOf(got).findLast((m) => "result" in m || "error" in m);
    if (!last) throw new Error(`${call.name}: round ${round} has no answer: ${got.text}`);
    const result = last["result"] as Message | undefined;
    if (result?.["resultType"] !== "input_required") return { answers, asked, last };
    const inputResponses: Message = {};
    for (const [key, question] of Object.entries(result["inputRequests"] as Record<string, Question>)) {
      asked.push({ ...question, round });
      inputResponses[key] = answer(question);
    }
    retry = { inputResponses, requestState: result["requestState"] };
  }
  throw new Error(`${call.name}: still input_required after ${maxRounds} rounds`);
}
