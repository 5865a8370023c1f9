import { useEffect, useMemo, useState } from "preact/hooks";
import type { CallAnswer, HeldRow, TaskRow, ToolRow } from "../src/api.js";
import { AppView } from "./apps.js";
import { api, newId } from "./client.js";
import { Content, Json, Ms } from "./content.js";
import { SchemaForm } from "./form.js";
import { addRun, History, keepArgs, keptArgs, RunRequest, runsOf, type Run } from "./history.js";
import { GroupedList } from "./list.js";
import { initialValue, missingRequired, prune, withoutLeftOut } from "./schema.js";

export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

function ProgressBar({ progress }: { progress: Progress | undefined }) {
  const fraction = progress?.total ? Math.min(1, progress.progress / progress.total) : undefined;
  return (
    <div class="progress" role="progressbar" aria-valuenow={progress?.progress} aria-valuemax={progress?.total}>
      <div
        class={fraction === undefined ? "bar indeterminate" : "bar"}
        style={fraction === undefined ? undefined : { width: `${(fraction * 100).toFixed(1)}%` }}
      />
      <span class="progress-text">
        {progress ? `${progress.progress}${progress.total === undefined ? "" : ` / ${progress.total}`}` : "waiting…"}
        {progress?.message ? ` — ${progress.message}` : ""}
      </span>
    </div>
  );
}

export function ResultView({ answer, onOpenResource }: { answer: CallAnswer; onOpenResource: (uri: string) => void }) {
  if (answer.error) {
    return (
      <div class="result failed">
        <div class="banner error">
          {answer.error.message} {answer.error.code === undefined ? null : <code>{String(answer.error.code)}</code>}
        </div>
        <Ms ms={answer.ms} />
      </div>
    );
  }
  const result = answer.result ?? {};
  return (
    <div class={result.isError ? "result is-error" : "result ok"}>
      <div class="result-head">
        {result.isError ? (
          <span class="banner error">The tool reported an error (isError)</span>
        ) : (
          <span class="ok-mark">result</span>
        )}
        <Ms ms={answer.ms} />
      </div>
      {(result.content ?? []).map((block) => (
        <Content block={block} onOpenResource={onOpenResource} />
      ))}
      {result.structuredContent !== undefined ? (
        <div class="structured">
          <div class="muted">structuredContent</div>
          <Json value={result.structuredContent} />
        </div>
      ) : null}
    </div>
  );
}

function ToolPanel({
  tool,
  progress,
  tasks,
  onOpenResource,
}: {
  tool: ToolRow;
  progress: Map<string, Progress>;
  tasks: Map<string, TaskRow>;
  onOpenResource: (server: string, uri: string) => void;
}) {
  const [args, setArgs] = useState<Record<string, unknown>>(
    () => keptArgs(tool.name) ?? (initialValue(tool.inputSchema) as Record<string, unknown> | undefined) ?? {},
  );
  const [running, setRunning] = useState<string | undefined>();
  const [runs, setRuns] = useState<Run[]>(() => runsOf(tool.name));
  /** The run shown: the last one, or one chosen in the history. */
  const [shown, setShown] = useState<string | undefined>(() => runsOf(tool.name)[0]?.id);
  /** The run made while this panel is open: only it gets the tool's app (a past one shows its answer alone). */
  const [live, setLive] = useState<string | undefined>();
  /** The arguments of the live run: its app opens when the call starts, before its answer. */
  const [liveArgs, setLiveArgs] = useState<Record<string, unknown>>({});
  const [problem, setProblem] = useState<string | undefined>();
  const run = runs.find((r) => r.id === shown);
  const answer = run?.answer;
  const edit = (next: Record<string, unknown>): void => {
    setArgs(next);
    keepArgs(tool.name, next);
  };
  const call = async (given: Record<string, unknown> = args) => {
    const missing = missingRequired(tool.inputSchema, given);
    if (missing.length > 0) {
      setProblem(`Required: ${missing.join(", ")}`);
      return;
    }
    setProblem(undefined);
    const id = newId();
    setRunning(id);
    setShown(undefined);
    const sent = withoutLeftOut(tool.inputSchema, prune(given)) as Record<string, unknown>;
    const at = new Date().toISOString();
    setLive(id);
    setLiveArgs(sent);
    let got: CallAnswer;
    try {
      got = await api<CallAnswer>("/api/call", { id, tool: tool.name, arguments: sent });
    } catch (error) {
      got = { id, ms: 0, error: { message: (error as Error).message } };
    }
    setRuns(addRun(tool.name, { id, at, args: sent, answer: got }));
    setShown(id);
    setRunning(undefined);
  };
  return (
    <div class="tool-panel" data-tool={tool.name}>
      <h2>
        {tool.title ?? tool.tool} <span class="muted">{tool.server}</span>
      </h2>
      <code class="model-name">{tool.name}</code>
      {tool.description ? <p class="description">{tool.description}</p> : null}
      {tool.ui ? (
        <div class="annotations">
          <span class="tag app">MCP App {tool.ui.resourceUri}</span>
          {tool.ui.visibility.includes("model") ? null : <span class="tag">app only (hidden from models)</span>}
        </div>
      ) : null}
      {tool.annotations ? (
        <div class="annotations">
          {Object.entries(tool.annotations).map(([k, v]) => (
            <span class="tag">
              {k}: {String(v)}
            </span>
          ))}
        </div>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void call();
        }}
      >
        <SchemaForm
          schema={tool.inputSchema}
          value={args}
          onChange={(v) => {
            edit(v);
            setProblem(undefined);
          }}
        />
        {problem ? <div class="error-text">{problem}</div> : null}
        <div class="buttons">
          <button type="submit" class="primary" name="call" disabled={running !== undefined}>
            Call
          </button>
          {running ? (
            <button type="button" name="cancel" onClick={() => void api("/api/cancel", { id: running })}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {running ? <ProgressBar progress={progress.get(running)} /> : null}
      {running && tasks.get(running) ? (
        <div class="task-line" data-task-status={tasks.get(running)!.status}>
          task {tasks.get(running)!.status.replace(/_/g, " ")}
          {tasks.get(running)!.statusMessage ? `: ${tasks.get(running)!.statusMessage}` : ""}
        </div>
      ) : null}
      <History
        runs={runs}
        shown={shown}
        busy={running !== undefined}
        onShow={(r) => setShown(r.id)}
        onRerun={(r) => {
          edit(r.args);
          void call(r.args);
        }}
      />
      {run && run.id !== live ? <RunRequest run={run} /> : null}
      {tool.ui && live !== undefined && (running === live || run?.id === live) ? (
        <div class="with-app">
          {run?.id === live && answer ? (
            <ResultView answer={answer} onOpenResource={(uri) => onOpenResource(tool.server, uri)} />
          ) : (
            <p class="muted app-running">The call runs; its app has its input.</p>
          )}
          <AppView
            key={`${tool.name} ${live}`}
            tool={tool}
            args={liveArgs}
            answer={run?.id === live ? answer : undefined}
          />
        </div>
      ) : answer ? (
        <ResultView answer={answer} onOpenResource={(uri) => onOpenResource(tool.server, uri)} />
      ) : null}
    </div>
  );
}

/** Tools held by tool pinning: each marked, with its diff and a button that approves it (`POST /api/pins/approve`). */
function HeldTools({ held }: { held: HeldRow[] }) {
  const [error, setError] = useState<string | undefined>();
  if (held.length === 0) return null;
  const approve = (row: HeldRow) => {
    setError(undefined);
    api("/api/pins/approve", { server: row.server, tool: row.tool }).catch((e: Error) => setError(e.message));
  };
  return (
    <div class="held-tools">
      <div class="banner error">
        {held.length} tool{held.length === 1 ? "" : "s"} held: changed since approved, or new. Not offered to models nor
        callable until approved.
      </div>
      {error ? <div class="banner error">{error}</div> : null}
      {held.map((row) => (
        <div class="held" data-held={`${row.server}.${row.tool}`}>
          <div class="held-head">
            <strong>
              {row.server}.{row.tool}
            </strong>{" "}
            <span class="muted">{row.change === "changed" ? `changed: ${row.fields.join(", ")}` : "new"}</span>{" "}
            <button type="button" name={`approve-${row.server}-${row.tool}`} onClick={() => approve(row)}>
              Approve
            </button>
          </div>
          <pre class="diff">{row.diff}</pre>
        </div>
      ))}
    </div>
  );
}

export function ToolsView({
  tools,
  held,
  progress,
  tasks,
  onOpenResource,
}: {
  tools: ToolRow[];
  held: HeldRow[];
  progress: Map<string, Progress>;
  tasks: Map<string, TaskRow>;
  onOpenResource: (server: string, uri: string) => void;
}) {
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<string | undefined>();
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q
      ? tools.filter((t) => `${t.server} ${t.tool} ${t.title ?? ""} ${t.description ?? ""}`.toLowerCase().includes(q))
      : tools;
  }, [tools, query]);
  const tool = tools.find((t) => t.name === selected);
  useEffect(() => {
    if (selected !== undefined && !tool) setSelected(undefined);
  }, [tool, selected]);
  return (
    <section class="view split">
      <HeldTools held={held} />
      <GroupedList
        rows={shown}
        empty="No tools match."
        before={
          <input
            type="search"
            name="tool-search"
            placeholder={`Search ${tools.length} tools`}
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        }
        item={(t) => (
          <button
            type="button"
            class={t.name === selected ? "item active" : "item"}
            data-tool={t.tool}
            onClick={() => setSelected(t.name)}
          >
            <span class="item-name">{t.tool}</span>
            {t.description ? <span class="item-desc">{t.description}</span> : null}
          </button>
        )}
      />
      <div class="detail">
        {tool ? (
          <ToolPanel key={tool.name} tool={tool} progress={progress} tasks={tasks} onOpenResource={onOpenResource} />
        ) : (
          <p class="muted">Choose a tool.</p>
        )}
      </div>
    </section>
  );
}
