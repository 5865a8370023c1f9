import { Fragment } from "preact";
import { useMemo, useState } from "preact/hooks";
import { LOG_LEVELS, type LogEntry } from "../src/api.js";
import { api } from "./client.js";
import { Json, Ms } from "./content.js";

const KINDS: LogEntry["kind"][] = [
  "request",
  "response",
  "error",
  "notification",
  "log",
  "server-request",
  "status",
  "app",
];

function summary(entry: LogEntry): string {
  if (entry.kind === "log") {
    const p = entry.params as { level?: string; data?: unknown } | undefined;
    return `${p?.level ?? ""} ${typeof p?.data === "string" ? p.data : JSON.stringify(p?.data ?? "")}`;
  }
  if (entry.error) return entry.error;
  const shown = entry.kind === "response" ? entry.result : entry.params;
  if (shown === undefined) return "";
  const text = JSON.stringify(shown);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

/** Asks every server that logs for messages from `level` up (`logging/setLevel`). */
function LevelPicker() {
  const [level, setLevel] = useState("");
  const [said, setSaid] = useState<string | undefined>();
  return (
    <label class="check">
      server log level
      <select
        name="log-level"
        value={level}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setLevel(next);
          if (!next) return;
          api<{ servers: string[] }>("/api/log-level", { level: next })
            .then((a) => setSaid(a.servers.length ? `set on ${a.servers.join(", ")}` : "no server logs"))
            .catch((error: Error) => setSaid(error.message));
        }}
      >
        <option value="">(server default)</option>
        {LOG_LEVELS.map((l) => (
          <option value={l}>{l}</option>
        ))}
      </select>
      {said ? <span class="muted level-said">{said}</span> : null}
    </label>
  );
}

export function LogView({ log, onClear }: { log: LogEntry[]; onClear: () => void }) {
  const [query, setQuery] = useState("");
  const [kinds, setKinds] = useState<Set<string>>(new Set(KINDS));
  const [open, setOpen] = useState<number | undefined>();
  const [copied, setCopied] = useState(false);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return log.filter((e) => kinds.has(e.kind) && (!q || JSON.stringify(e).toLowerCase().includes(q)));
  }, [log, query, kinds]);
  return (
    <section class="view log">
      <div class="toolbar">
        <input
          type="search"
          name="log-filter"
          placeholder="Filter (server, method, text)"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        {KINDS.map((kind) => (
          <label class="check">
            <input
              type="checkbox"
              name={`kind-${kind}`}
              checked={kinds.has(kind)}
              onChange={(e) => {
                const next = new Set(kinds);
                if (e.currentTarget.checked) next.add(kind);
                else next.delete(kind);
                setKinds(next);
              }}
            />
            {kind}
          </label>
        ))}
        <button
          type="button"
          class="small"
          name="copy-log"
          onClick={() => {
            void copy(JSON.stringify(shown, null, 2)).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            });
          }}
        >
          {copied ? "copied" : `copy ${shown.length} as JSON`}
        </button>
        <button type="button" class="small" onClick={onClear}>
          clear
        </button>
        <LevelPicker />
      </div>
      <table class="entries">
        <tbody>
          {shown
            .slice(-500)
            .reverse()
            // Keyed by entry: a row stays its entry's while new ones arrive above it, so a click
            // opens the entry that was under the pointer, not whichever took its place.
            .map((e) => (
              <Fragment key={e.seq}>
                <tr
                  class={`entry ${e.kind}`}
                  data-kind={e.kind}
                  data-method={e.method}
                  onClick={() => setOpen(open === e.seq ? undefined : e.seq)}
                >
                  <td class="time">{e.time.slice(11, 23)}</td>
                  <td class="server">{e.server}</td>
                  <td class="kind">{e.kind}</td>
                  <td class="method">{e.method}</td>
                  <td class="took">
                    <Ms ms={e.ms} />
                  </td>
                  <td class="summary">{summary(e)}</td>
                </tr>
                {open === e.seq ? (
                  <tr class="entry-detail">
                    <td colSpan={6}>
                      <Json value={e} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
        </tbody>
      </table>
      {shown.length === 0 ? (
        <p class="muted">Nothing yet: calls, notifications and log messages appear here as they happen.</p>
      ) : null}
    </section>
  );
}
