// What a caller sent a consent link keeps of its connection until the consent completes (up to 30
// minutes): the way to notify it, never the connection itself. A closed 2025 session's SDK server
// instance must be collectable at once, not held by the gateway's list of links sent.
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { Server } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { completedOf } from "../src/asking.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** An SDK server instance whose caller declared URL elicitation, and a weak reference to it. */
function instance(): { completed: ((id: string) => void) | undefined; ref: WeakRef<Server>; sent: string[] } {
  const server = new Server({ name: "gw", version: "0" }, { capabilities: {} });
  const sent: string[] = [];
  // What a connected caller's initialize leaves: its capabilities, and a live connection to notify.
  Object.assign(server, {
    getClientCapabilities: () => ({ elicitation: { url: {} } }),
    notification: (message: { params: { elicitationId: string } }) => (
      sent.push(message.params.elicitationId),
      Promise.resolve()
    ),
  });
  return { completed: completedOf(server), ref: new WeakRef(server), sent };
}

describe("notifications/elicitation/complete: what is kept of the caller's connection", () => {
  it("notifies the instance while it is alive, and does not keep it alive", async () => {
    const live = instance();
    live.completed!("link-1");
    expect(live.sent).toEqual(["link-1"]);
    const dropped = instance();
    expect(dropped.completed).toBeDefined();
    for (let i = 0; i < 5 && dropped.ref.deref(); i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    expect(dropped.ref.deref()).toBeUndefined();
    // Its callback still runs, and does nothing.
    dropped.completed!("link-2");
  });
});
