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

/** One app on the board: a call's, opened when the call started. */
interface AppSlot {
  /** The call's id. */
  key: string;
  tool: ToolRow;
  args: Record<string, unknown>;
  answer?: CallAnswer | undefined;
  kept: boolean;
}

/** What a tool panel tells the apps board: a call of a tool with an app started, or ended. */
interface AppBoard {
  open(key: string, tool: ToolRow, args: Record<string, unknown>): void;
  answer(key: string, answer: CallAnswer): void;
}

function ToolPanel({
  tool,
  progress,
  tasks,
  board,
  onOpenResource,
}: {
  tool: ToolRow;
  progress: Map<string, Progress>;
  tasks: Map<string, TaskRow>;
  board: AppBoard;
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
  const [problem, setProblem] = useState<string | undefined>();
  /** Run the call as a task (a tool whose taskSupport is optional). */
  const [asTask, setAsTask] = useState(false);
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
    // Its app opens when the call starts (on the board, below), before its answer.
    if (tool.ui) board.open(id, tool, sent);
    let got: CallAnswer;
    try {
      got = await api<CallAnswer>("/api/call", {
        id,
        tool: tool.name,
        arguments: sent,
        ...(asTask && tool.taskSupport === "optional" ? { task: true } : {}),
      });
    } catch (error) {
      got = { id, ms: 0, error: { message: (error as Error).message } };
    }
    if (tool.ui) board.answer(id, got);
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
        {tool.taskSupport === "optional" ? (
          <label class="as-task">
            <input
              type="checkbox"
              name="as-task"
              checked={asTask}
              onChange={(e) => setAsTask(e.currentTarget.checked)}
            />{" "}
            run as a task (the tool may run as one: its status in Tasks, Cancel sends tasks/cancel)
          </label>
        ) : tool.taskSupport === "required" ? (
          <div class="muted as-task">runs as a task (the tool requires one)</div>
        ) : null}
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
      {tool.ui && live !== undefined && running === live ? (
        <p class="muted app-running">The call runs; its app has its input.</p>
      ) : answer ? (
        <ResultView answer={answer} onOpenResource={(uri) => onOpenResource(tool.server, uri)} />
      ) : null}
    </div>
  );
}

/**
 * The apps of the calls made in this view, side by side: a call's app replaces those not kept open
 * (another tool's too), and stays until its tool or another call replaces it, or it is closed.
 */
function AppsBoard({
  apps,
  tools,
  setApps,
}: {
  apps: AppSlot[];
  tools: ToolRow[];
  setApps: (change: (apps: AppSlot[]) => AppSlot[]) => void;
}) {
  if (apps.length === 0) return null;
  return (
    <div class="apps-board" data-apps={apps.length}>
      {apps.map((slot) => (
        <AppView
          key={slot.key}
          tool={slot.tool}
          args={slot.args}
          answer={slot.answer}
          kept={slot.kept}
          onKeep={(kept) => setApps((all) => all.map((s) => (s.key === slot.key ? { ...s, kept } : s)))}
          onClose={() => setApps((all) => all.filter((s) => s.key !== slot.key))}
          toolNamed={(server, name) => tools.find((t) => t.server === server && t.tool === name)}
        />
      ))}
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
  const [apps, setApps] = useState<AppSlot[]>([]);
  const board: AppBoard = {
    open: (key, tool, args) => setApps((all) => [...all.filter((s) => s.kept), { key, tool, args, kept: false }]),
    answer: (key, answer) => setApps((all) => all.map((s) => (s.key === key ? { ...s, answer } : s))),
  };
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
            onClick={() => {
              // Another tool: the apps not kept open close, as its panel replaces the last one.
              if (t.name !== selected) setApps((all) => all.filter((s) => s.kept));
              setSelected(t.name);
            }}
          >
            <span class="item-name">{t.tool}</span>
            {t.description ? <span class="item-desc">{t.description}</span> : null}
          </button>
        )}
      />
      <div class="detail">
        {tool ? (
          <ToolPanel
            key={tool.name}
            tool={tool}
            progress={progress}
            tasks={tasks}
            board={board}
            onOpenResource={onOpenResource}
          />
        ) : (
          <p class="muted">Choose a tool.</p>
        )}
        <AppsBoard apps={apps} tools={tools} setApps={setApps} />
      </div>
    </section>
  );
}
