// The Requests view: one server at a time, its ping, a raw JSON-RPC request built by hand (method
// and params) with the server's answer as it came, and the notifications that server sent.
import { useMemo, useState } from "preact/hooks";
import type { LogEntry, PingAnswer, RpcAnswer, ServerRow } from "../src/api.js";
import { api } from "./client.js";
import { Json, Ms } from "./content.js";

/** Log kinds that are the server speaking unasked: notifications and log messages. */
const FROM_SERVER = new Set<LogEntry["kind"]>(["notification", "log"]);

/** The params text as an object, or why it is not one. */
function parseParams(textValue: string): { params?: Record<string, unknown>; error?: string } {
  if (textValue.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(textValue);
  } catch (error) {
    return { error: `params: not JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { error: "params: must be a JSON object (MCP params are by name)" };
  return { params: value as Record<string, unknown> };
}

function Ping({ server }: { server: string }) {
  const [answer, setAnswer] = useState<PingAnswer | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const run = () => {
    setBusy(true);
    setFailure(undefined);
    api<PingAnswer>("/api/ping", { server })
      .then(setAnswer)
      .catch((e: Error) => setFailure(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <div class="ping">
      <button type="button" name="ping" disabled={busy} onClick={run}>
        ping
      </button>{" "}
      {answer ? (
        <span class={answer.error ? "ping-answer error" : "ping-answer ok"}>
          {answer.method} {answer.error ? `failed: ${answer.error.message}` : "answered in"} <Ms ms={answer.ms} />
        </span>
      ) : null}
      {failure ? <span class="error">{failure}</span> : null}
    </div>
  );
}

function RawRequest({ server }: { server: string }) {
  const [method, setMethod] = useState("tools/list");
  const [paramsText, setParamsText] = useState("{}");
  const [answer, setAnswer] = useState<RpcAnswer | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const send = () => {
    const parsed = parseParams(paramsText);
    if (parsed.error) return setFailure(parsed.error);
    setBusy(true);
    setFailure(undefined);
    setAnswer(undefined);
    api<RpcAnswer>("/api/rpc", { server, method: method.trim(), ...(parsed.params ? { params: parsed.params } : {}) })
      .then(setAnswer)
      .catch((e: Error) => setFailure(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <div class="raw-request">
      <h3>JSON-RPC request</h3>
      <label>
        method <input name="rpc-method" value={method} onInput={(e) => setMethod(e.currentTarget.value)} />
      </label>
      <label class="block">
        params (JSON object, empty for none)
        <textarea name="rpc-params" rows={5} value={paramsText} onInput={(e) => setParamsText(e.currentTarget.value)} />
      </label>
      <button type="button" class="primary" name="rpc-send" disabled={busy || method.trim() === ""} onClick={send}>
        send
      </button>
      {failure ? <div class="banner error rpc-failure">{failure}</div> : null}
      {answer ? (
        <div class={answer.error ? "rpc-answer error" : "rpc-answer ok"}>
          <span class="muted">
            {answer.error ? "error" : "result"} after <Ms ms={answer.ms} />
          </span>
          <Json value={answer.error ? { error: answer.error } : { result: answer.result }} />
        </div>
      ) : null}
    </div>
  );
}

function Notifications({ server, log }: { server: string; log: LogEntry[] }) {
  const mine = useMemo(
    () => log.filter((e) => e.server === server && FROM_SERVER.has(e.kind)).reverse(),
    [log, server],
  );
  return (
    <div class="notifications">
      <h3>Notifications from {server}</h3>
      {mine.length === 0 ? (
        <p class="muted">
          None yet: what the server sends unasked (log messages, list changes, resource updates, progress) appears here.
        </p>
      ) : null}
      <ul class="notes">
        {mine.slice(0, 200).map((e) => (
          <li key={e.seq} class="note" data-method={e.method}>
            <span class="time">{e.time.slice(11, 23)}</span> <code class="method">{e.method}</code>
            <Json value={e.params} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The Requests view over the connected servers. */
export function RpcView({ servers, log }: { servers: ServerRow[]; log: LogEntry[] }) {
  const [chosen, setChosen] = useState<string | undefined>();
  const server = chosen !== undefined && servers.some((s) => s.name === chosen) ? chosen : servers[0]?.name;
  if (server === undefined) return <p class="muted">No server is connected.</p>;
  return (
    <section class="view rpc" data-server={server}>
      <label>
        server{" "}
        <select name="rpc-server" value={server} onChange={(e) => setChosen(e.currentTarget.value)}>
          {servers.map((s) => (
            <option value={s.name}>{s.name}</option>
          ))}
        </select>
      </label>
      <div class="split">
        <div class="detail">
          <Ping key={`ping-${server}`} server={server} />
          <RawRequest key={`raw-${server}`} server={server} />
        </div>
        <div class="detail">
          <Notifications server={server} log={log} />
        </div>
      </div>
    </section>
  );
}
