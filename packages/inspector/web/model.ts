// The page's model: what the state and the event stream say, applied in the order that keeps the newest.
import type {
  Dialog,
  HeldRow,
  InspectedServer,
  InspectorEvent,
  InspectorState,
  LogEntry,
  TaskRow,
  ToolRow,
} from "../src/api.js";
import { trimLog } from "../src/log-ring.js";
import type { Progress } from "./tools.js";

/** Calls kept, and as many log lines, notifications and app messages apart (see `trimLog`). */
const MAX_LOG = 1000;

/** Everything the page shows that the server tells it. */
export interface Model {
  loaded: boolean;
  version: string;
  /** The page's heading (`heading` of the inspector's options). */
  heading: string;
  servers: InspectedServer[];
  tools: ToolRow[];
  held: HeldRow[];
  log: LogEntry[];
  dialogs: Dialog[];
  /** Tool calls that ran as tasks, by call id (in the order they started). */
  tasks: Map<string, TaskRow>;
  progress: Map<string, Progress>;
  updates: Map<string, number>;
  /**
   * The events received since the stream (re)opened, until the state fetched then arrives: an event
   * can reach the page before a state taken before it was sent, and is applied again after it.
   */
  since: InspectorEvent[] | undefined;
}

export type Action =
  | { type: "state"; state: InspectorState }
  | { type: "opened" }
  | { type: "state-failed" }
  | { type: "clear-log" }
  | InspectorEvent;

/** The events whose news a state also holds (the others change nothing a state replaces). */
const IN_STATE = new Set<InspectorEvent["type"]>([
  "servers",
  "tools",
  "held",
  "log",
  "dialog",
  "dialog-closed",
  "task",
]);

/** The next model after `action` (the page's reducer). */
export function reduce(model: Model, action: Action): Model {
  switch (action.type) {
    case "opened":
      return { ...model, since: [] };
    case "state-failed":
      return { ...model, since: undefined };
    case "state": {
      const synced = apply({ ...model, since: undefined }, action);
      return (model.since ?? []).filter((event) => event.at > action.state.at).reduce(apply, synced);
    }
    case "clear-log":
      return { ...model, log: [] };
    default: {
      const next = apply(model, action);
      return model.since && IN_STATE.has(action.type) ? { ...next, since: [...model.since, action] } : next;
    }
  }
}

function apply(model: Model, action: { type: "state"; state: InspectorState } | InspectorEvent): Model {
  switch (action.type) {
    case "state": {
      const { servers, tools, held, dialogs, version, heading } = action.state;
      // Entries that arrived on the stream after the snapshot was taken are kept.
      const last = action.state.log.at(-1)?.seq ?? 0;
      const log = [...action.state.log, ...model.log.filter((e) => e.seq > last)];
      return {
        ...model,
        loaded: true,
        servers,
        tools,
        held: held ?? [],
        log,
        dialogs,
        version,
        heading: heading ?? "",
        tasks: new Map((action.state.tasks ?? []).map((t) => [t.id, t])),
      };
    }
    case "servers":
      return { ...model, servers: action.servers };
    case "tools":
      return { ...model, tools: action.tools };
    case "held":
      return { ...model, held: action.held };
    case "log": {
      if (model.log.some((e) => e.seq === action.entry.seq)) return model;
      return { ...model, log: trimLog([...model.log, action.entry], MAX_LOG) };
    }
    case "progress": {
      const progress = new Map(model.progress);
      progress.set(action.id, { progress: action.progress, total: action.total, message: action.message });
      return { ...model, progress };
    }
    case "dialog":
      return model.dialogs.some((d) => d.id === action.dialog.id)
        ? model
        : { ...model, dialogs: [...model.dialogs, action.dialog] };
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

/** The model before anything arrived. */
export function emptyModel(): Model {
  return {
    loaded: false,
    version: "",
    heading: "",
    servers: [],
    tools: [],
    held: [],
    log: [],
    dialogs: [],
    tasks: new Map(),
    progress: new Map(),
    updates: new Map(),
    since: undefined,
  };
}
