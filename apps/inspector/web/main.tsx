// The inspector page: one app, six views, one live event stream.
import { render } from "preact";
import { useEffect, useReducer, useState } from "preact/hooks";
import type { Dialog, HeldRow, InspectedServer, InspectorEvent, InspectorState, LogEntry, TaskRow, ToolRow } from "../src/api.js";
import { api, subscribeEvents } from "./client.js";
import { DialogView } from "./dialog.js";
import { LogView } from "./log.js";
import { PromptsView } from "./prompts.js";
import { ResourcesView, type Target } from "./resources.js";
import { ServersView } from "./servers.js";
import { TasksView } from "./tasks.js";
import { ToolsView, type Progress } from "./tools.js";

const VIEWS = ["servers", "tools", "tasks", "resources", "prompts", "log"] as const;
type View = (typeof VIEWS)[number];
const MAX_LOG = 1000;

interface Model {
  loaded: boolean;
  version: string;
  servers: InspectedServer[];
  tools: ToolRow[];
  held: HeldRow[];
  log: LogEntry[];
  dialogs: Dialog[];
  /** Tool calls that ran as tasks, by call id (in the order they started). */
  tasks: Map<string, TaskRow>;
  progress: Map<string, Progress>;
  updates: Map<string, number>;
}

type Action = { type: "state"; state: InspectorState } | { type: "clear-log" } | InspectorEvent;

function reduce(model: Model, action: Action): Model {
  switch (action.type) {
    case "state": {
      const { servers, tools, held, dialogs, version } = action.state;
      // Entries that arrived on the stream after the snapshot was taken are kept.
      const last = action.state.log.at(-1)?.seq ?? 0;
      const log = [...action.state.log, ...model.log.filter((e) => e.seq > last)];
      return { ...model, loaded: true, servers, tools, held: held ?? [], log, dialogs, version, tasks: new Map((action.state.tasks ?? []).map((t) => [t.id, t])) };
    }
    case "clear-log":
      return { ...model, log: [] };
    case "servers":
      return { ...model, servers: action.servers };
    case "tools":
      return { ...model, tools: action.tools };
    case "held":
      return { ...model, held: action.held };
    case "log": {
      if (model.log.some((e) => e.seq === action.entry.seq)) return model;
      const log = [...model.log, action.entry];
      return { ...model, log: log.length > MAX_LOG ? log.slice(-MAX_LOG) : log };
    }
    case "progress": {
      const progress = new Map(model.progress);
      progress.set(action.id, { progress: action.progress, total: action.total, message: action.message });
      return { ...model, progress };
    }
    case "dialog":
      return model.dialogs.some((d) => d.id === action.dialog.id) ? model : { ...model, dialogs: [...model.dialogs, action.dialog] };
    case "dialog-closed":
      return { ...model, dialogs: model.dialogs.filter((d) => d.id !== action.id) };
    case "task": {
      const tasks = new Map(model.tasks);
      tasks.set(action.task.id, action.task);
      return { ...model, tasks };
    }
    case "resource-updated": {
      const updates = new Map(model.updates);
      const key = `${action.server} ${action.uri}`;
      updates.set(key, (updates.get(key) ?? 0) + 1);
      return { ...model, updates };
    }
  }
}

function viewFromHash(): View {
  const name = location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : "servers";
}

function App() {
  const [model, dispatch] = useReducer(reduce, { loaded: false, version: "", servers: [], tools: [], held: [], log: [], dialogs: [], tasks: new Map(), progress: new Map(), updates: new Map() });
  const [view, setView] = useState<View>(viewFromHash);
  const [live, setLive] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [open, setOpen] = useState<Target | undefined>();

  useEffect(() => {
    const onHash = () => setView(viewFromHash());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  useEffect(
    () =>
      subscribeEvents(
        (event) => dispatch(event),
        (up) => {
          setLive(up);
          // After a (re)connect of the stream, fetch the whole state: events may have been missed.
          if (up) {
            api<InspectorState>("/api/state")
              .then((state) => {
                dispatch({ type: "state", state });
                setError(undefined);
              })
              .catch((e: Error) => setError(e.message));
          }
        },
      ),
    [],
  );

  const go = (next: View) => {
    location.hash = next;
    setView(next);
  };
  const openResource = (server: string, uri: string) => {
    setOpen({ server, uri });
    go("resources");
  };
  const connected = model.servers.filter((s) => s.status === "connected");
  const running = [...model.tasks.values()].filter((t) => !t.ended).length;
  const count: Record<View, number | undefined> = { servers: model.servers.length, tools: model.tools.length, tasks: running > 0 ? running : undefined, resources: undefined, prompts: undefined, log: model.log.length };

  return (
    <>
      <header>
        <h1>mcp inspect</h1>
        <nav>
          {VIEWS.map((v) => (
            <button type="button" class={v === view ? "tab active" : "tab"} name={`view-${v}`} onClick={() => go(v)}>
              {v}
              {count[v] === undefined ? null : <span class="count">{count[v]}</span>}
            </button>
          ))}
        </nav>
        <span class={live ? "live on" : "live off"} title={live ? "live updates on" : "reconnecting to mcp inspect…"}>
          {live ? "live" : "offline"}
        </span>
        <span class="muted version">{model.version ? `mcp ${model.version}` : ""}</span>
      </header>
      {error ? <div class="banner error">{error}</div> : null}
      <main>
        {!model.loaded ? (
          <p class="muted">Loading…</p>
        ) : view === "servers" ? (
          <ServersView servers={model.servers} />
        ) : view === "tools" ? (
          <ToolsView tools={model.tools} held={model.held} progress={model.progress} tasks={model.tasks} onOpenResource={openResource} />
        ) : view === "tasks" ? (
          <TasksView tasks={[...model.tasks.values()]} />
        ) : view === "resources" ? (
          <ResourcesView servers={connected} open={open} updates={model.updates} />
        ) : view === "prompts" ? (
          <PromptsView servers={connected} onOpenResource={openResource} />
        ) : (
          <LogView log={model.log} onClear={() => dispatch({ type: "clear-log" })} />
        )}
      </main>
      {model.dialogs[0] ? <DialogView key={model.dialogs[0].id} dialog={model.dialogs[0]} /> : null}
    </>
  );
}

render(<App />, document.getElementById("app")!);
