// Each tool's calls, kept for the page's life: what was sent, what came back and how long it took,
// and the arguments being typed; switching tools and back finds them where they were. A run of the
// list can be looked at again (its request and answer) or run again.
import type { CallAnswer } from "../src/api.js";
import { Json, Ms } from "./content.js";

/** Runs kept per tool (the oldest go). */
const KEPT = 20;

/** One call of a tool. */
export interface Run {
  id: string;
  /** When it was sent (ISO). */
  at: string;
  /** The arguments sent. */
  args: Record<string, unknown>;
  answer: CallAnswer;
}

interface Memory {
  args: Record<string, unknown> | undefined;
  runs: Run[];
}

/** Per tool name, for the page's life (a module's state outlives the view that shows it). */
const memory = new Map<string, Memory>();

function of(tool: string): Memory {
  let kept = memory.get(tool);
  if (!kept) memory.set(tool, (kept = { args: undefined, runs: [] }));
  return kept;
}

/** The arguments last typed for `tool`, if any. */
export function keptArgs(tool: string): Record<string, unknown> | undefined {
  return memory.get(tool)?.args;
}

export function keepArgs(tool: string, args: Record<string, unknown>): void {
  of(tool).args = args;
}

/** `tool`'s runs, newest first. */
export function runsOf(tool: string): Run[] {
  return memory.get(tool)?.runs ?? [];
}

/** Adds a run; the runs as they are now, newest first. */
export function addRun(tool: string, run: Run): Run[] {
  const kept = of(tool);
  kept.runs = [run, ...kept.runs].slice(0, KEPT);
  return kept.runs;
}

/** The list of a tool's runs: the one shown is marked; each can be shown or run again. */
export function History({
  runs,
  shown,
  onShow,
  onRerun,
  busy,
}: {
  runs: Run[];
  shown: string | undefined;
  onShow: (run: Run) => void;
  onRerun: (run: Run) => void;
  busy: boolean;
}) {
  if (runs.length === 0) return null;
  return (
    <details class="history" open>
      <summary>
        History <span class="muted">({runs.length})</span>
      </summary>
      <ol>
        {runs.map((run) => (
          <li class={run.id === shown ? "run shown" : "run"} data-run={run.id}>
            <button type="button" name="show-run" class="link" onClick={() => onShow(run)}>
              {new Date(run.at).toLocaleTimeString()}{" "}
              <span class={run.answer.error || run.answer.result?.isError ? "bad" : "good"}>
                {run.answer.error ? "failed" : run.answer.result?.isError ? "isError" : "ok"}
              </span>{" "}
              <Ms ms={run.answer.ms} /> <code class="run-args">{JSON.stringify(run.args)}</code>
            </button>{" "}
            <button type="button" name="rerun" disabled={busy} onClick={() => onRerun(run)}>
              Run again
            </button>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** A past run's request, shown above its answer. */
export function RunRequest({ run }: { run: Run }) {
  return (
    <div class="run-request">
      <div class="muted">
        Request of {new Date(run.at).toLocaleTimeString()} (<code>tools/call</code> arguments)
      </div>
      <Json value={run.args} />
    </div>
  );
}
