// The page's model: a state fetched when the stream opens and the events that cross it on the way.
import { describe, expect, it } from "vitest";
import type { Dialog, InspectedServer, InspectorEvent, InspectorState } from "../src/api.js";
import { emptyModel, reduce, type Action } from "../web/model.js";

const server = (status: string): InspectedServer => ({ name: "fixture", status }) as unknown as InspectedServer;
const state = (at: number, status: string, dialogs: Dialog[] = []): InspectorState => ({
  servers: [server(status)],
  tools: [],
  held: [],
  log: [],
  dialogs,
  tasks: [],
  version: "0",
  at,
});
const dialog = { id: "d1", server: "fixture" } as unknown as Dialog;

function run(actions: Action[]) {
  return actions.reduce(reduce, emptyModel());
}

describe("the page's model", () => {
  it("an event that reaches the page before an older state is applied again after it: the server shows connected", () => {
    const connected: InspectorEvent = { type: "servers", servers: [server("connected")], at: 8 };
    const model = run([{ type: "opened" }, connected, { type: "state", state: state(7, "connecting") }]);
    expect(model.servers.map((s) => s.status)).toEqual(["connected"]);
    expect(model.loaded).toBe(true);
    expect(model.since).toBeUndefined();
  });

  it("an event the state already holds is not applied over it: the state is newer", () => {
    const old: InspectorEvent = { type: "servers", servers: [server("connecting")], at: 3 };
    const model = run([{ type: "opened" }, old, { type: "state", state: state(7, "connected") }]);
    expect(model.servers.map((s) => s.status)).toEqual(["connected"]);
  });

  it("a question asked, and one withdrawn, while the state was on its way are not lost nor revived", () => {
    const asked = run([
      { type: "opened" },
      { type: "dialog", dialog, at: 5 },
      { type: "state", state: state(4, "connected") },
    ]);
    expect(asked.dialogs.map((d) => d.id)).toEqual(["d1"]);
    const withdrawn = run([
      { type: "opened" },
      { type: "dialog-closed", id: "d1", at: 5 },
      { type: "state", state: state(4, "connected", [dialog]) },
    ]);
    expect(withdrawn.dialogs).toEqual([]);
  });

  it("news a state does not hold is applied once: a resource update counts one", () => {
    const model = run([
      { type: "opened" },
      { type: "resource-updated", server: "fixture", uri: "file:///a", at: 5 },
      { type: "state", state: state(4, "connected") },
    ]);
    expect(model.updates.get("fixture file:///a")).toBe(1);
  });

  it("after the state, events are applied as they come and nothing more is kept", () => {
    const model = run([
      { type: "opened" },
      { type: "state", state: state(1, "connecting") },
      { type: "servers", servers: [server("failed")], at: 2 },
    ]);
    expect(model.servers.map((s) => s.status)).toEqual(["failed"]);
    expect(model.since).toBeUndefined();
  });

  it("a state that could not be fetched stops the keeping: the stream goes on alone", () => {
    const model = run([
      { type: "opened" },
      { type: "state-failed" },
      { type: "servers", servers: [server("connected")], at: 2 },
    ]);
    expect(model.since).toBeUndefined();
    expect(model.servers.map((s) => s.status)).toEqual(["connected"]);
  });
});
