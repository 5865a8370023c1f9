// The inspector page: one app, seven views, one live event stream.
import { render } from "preact";
import { useEffect, useReducer, useState } from "preact/hooks";
import type { InspectorState } from "../src/api.js";
import { api, subscribeEvents } from "./client.js";
import { DialogView } from "./dialog.js";
import { LogView } from "./log.js";
import { emptyModel, reduce } from "./model.js";
import { PromptsView } from "./prompts.js";
import { ResourcesView, type Target } from "./resources.js";
import { RpcView } from "./rpc.js";
import { ServersView } from "./servers.js";
import { TasksView } from "./tasks.js";
import { ToolsView } from "./tools.js";

const VIEWS = ["servers", "tools", "tasks", "resources", "prompts", "requests", "log"] as const;
type View = (typeof VIEWS)[number];

function viewFromHash(): View {
  const name = location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : "servers";
}

function App() {
  const [model, dispatch] = useReducer(reduce, undefined, emptyModel);
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
            dispatch({ type: "opened" });
            api<InspectorState>("/api/state")
              .then((state) => {
                dispatch({ type: "state", state });
                setError(undefined);
              })
              .catch((e: Error) => {
                dispatch({ type: "state-failed" });
                setError(e.message);
              });
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
  const count: Record<View, number | undefined> = {
    servers: model.servers.length,
    tools: model.tools.length,
    tasks: running > 0 ? running : undefined,
    resources: undefined,
    prompts: undefined,
    requests: undefined,
    log: model.log.length,
  };

  return (
    <>
      <header>
        <h1>{model.heading || "MCP inspector"}</h1>
        <nav>
          {VIEWS.map((v) => (
            <button type="button" class={v === view ? "tab active" : "tab"} name={`view-${v}`} onClick={() => go(v)}>
              {v}
              {count[v] === undefined ? null : <span class="count">{count[v]}</span>}
            </button>
          ))}
        </nav>
        <span class={live ? "live on" : "live off"} title={live ? "live updates on" : "reconnecting to the inspector…"}>
          {live ? "live" : "offline"}
        </span>
        <span class="muted version">{model.version ? `v${model.version}` : ""}</span>
      </header>
      {error ? <div class="banner error">{error}</div> : null}
      <main>
        {!model.loaded ? (
          <p class="muted">Loading…</p>
        ) : view === "servers" ? (
          <ServersView servers={model.servers} />
        ) : view === "tools" ? (
          <ToolsView
            tools={model.tools}
            held={model.held}
            progress={model.progress}
            tasks={model.tasks}
            onOpenResource={openResource}
          />
        ) : view === "tasks" ? (
          <TasksView tasks={[...model.tasks.values()]} />
        ) : view === "resources" ? (
          <ResourcesView servers={connected} open={open} updates={model.updates} />
        ) : view === "prompts" ? (
          <PromptsView servers={connected} onOpenResource={openResource} />
        ) : view === "requests" ? (
          <RpcView servers={connected} log={model.log} />
        ) : (
          <LogView log={model.log} onClear={() => dispatch({ type: "clear-log" })} />
        )}
      </main>
      {model.dialogs[0] ? <DialogView key={model.dialogs[0].id} dialog={model.dialogs[0]} /> : null}
    </>
  );
}

render(<App />, document.getElementById("app")!);
