// InFlight: where a message nothing ties to a call goes among its owner's calls in flight — a
// question to the call handed the fewest so far (ties: the latest), a log to the latest; never a
// call that has its result (its outbox finished), never another caller's.
import { describe, expect, it } from "vitest";
import { InFlight, type Asker } from "../src/inflight.js";
import { Outbox } from "../src/outbox.js";

const ann = { id: "u-ann", name: "ann" };
const ben = { id: "u-ben", name: "ben" };

/** A call's asker, through its outbox (as the gateway registers it), recording the logs it gets. */
function callOf(caller: typeof ann, logs: string[]): { asker: Asker; outbox: Outbox } {
  const outbox = new Outbox();
  const asker = outbox.ordered({
    caller,
    can: () => true,
    ask: () => Promise.resolve({}),
    log: (_server, message) => void logs.push(String(message.data)),
  });
  return { asker, outbox };
}

describe("InFlight", () => {
  it("hands each untied question to the call handed the fewest so far, ties to the latest, only the owner's", () => {
    const inflight = new InFlight();
    const [a, b, c, other] = [callOf(ann, []), callOf(ann, []), callOf(ann, []), callOf(ben, [])];
    inflight.enter("s", a.asker);
    inflight.enter("s", b.asker);
    inflight.enter("s", c.asker);
    inflight.enter("s", other.asker);
    const handed = Array.from({ length: 7 }, () => inflight.untiedOf("s", ann));
    expect(handed).toEqual([c.asker, b.asker, a.asker, c.asker, b.asker, a.asker, c.asker]);
    expect(inflight.untiedOf("t", ann)).toBeUndefined();
  });

  it("gives nothing untied to a call that has its result: a log goes to the caller's next call in flight", async () => {
    const inflight = new InFlight();
    const [firstLogs, lastLogs] = [[] as string[], [] as string[]];
    const first = callOf(ann, firstLogs);
    const last = callOf(ann, lastLogs);
    inflight.enter("s", first.asker);
    const leave = inflight.enter("s", last.asker);
    inflight.latestOf("s", ann)!.log("s", { level: "info", data: "before" });
    // The latest call has its result; it has not left yet (its outbox drains first).
    const drained = last.outbox.finish();
    inflight.latestOf("s", ann)!.log("s", { level: "info", data: "after" });
    expect(inflight.untiedOf("s", ann)).toBe(first.asker);
    await drained;
    leave();
    await first.outbox.drained();
    expect(lastLogs).toEqual(["before"]);
    expect(firstLogs).toEqual(["after"]);
  });
});
