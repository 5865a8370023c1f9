// Where a server's untied question or roots request goes when the call it was handed to ends first.
// A 2025-era stdio server ties nothing to a call, so what it asks goes to its connection owner's
// latest call in flight; a 2026-07-28 call that gets its result before the next round refuses what
// was handed to it (CallEndedError), and the owner's next call must take it. The calls here are
// askers as the gateway's routing sees them, driven one at a time: the end-to-end property
// (apps/cli/test/serve-trust.test.ts) meets this only when the timing falls so.
import type { RequestContext } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { afterEach, describe, expect, it } from "vitest";
import { Gateway } from "../src/gateway.js";
import type { Asker } from "../src/inflight.js";
import type { Caller } from "../src/policy.js";
import { CallEndedError } from "../src/rounds.js";

const dave: Caller = { id: "u-dave", name: "dave" };
const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) await gateway.close();
});

/** A gateway whose only caller is dave: what a shared connection's server sends untied is dave's. */
function gateway(): Gateway {
  const made = new Gateway(new MCPManager({ cache: false }), { callers: [dave] });
  gateways.push(made);
  return made;
}

/**
 * A call of dave's to `server`, in flight on `g`; `asked` records each method put to it. An ending
 * call gets its result while a request handed to it is on its way: it leaves, and refuses the
 * request as a finished round does.
 */
function call(g: Gateway, server: string, name: string, ending = false): Asker & { asked: string[] } {
  const asked: string[] = [];
  const asker: Asker & { asked: string[] } = {
    caller: dave,
    asked,
    can: () => true,
    ask: (method) => {
      asked.push(method);
      if (ending) {
        leave();
        return Promise.reject(new CallEndedError());
      }
      return Promise.resolve(
        method === "roots/list"
          ? { roots: [{ uri: `file:///${name}` }] }
          : { role: "assistant", content: { type: "text", text: `sampled-in-${name}` }, model: "m" },
      );
    },
    log: () => undefined,
  };
  const leave = g.inflight.enter(server, asker);
  return asker;
}

const untied = (): RequestContext => ({ signal: new AbortController().signal }) as RequestContext;
const sampling = { messages: [], maxTokens: 1 } as never;

describe("an untied request handed to a call that ends first", () => {
  it("roots/list goes to the owner's next call in flight (not answered with no roots)", async () => {
    const g = gateway();
    const [first, latest] = [call(g, "p1s", "first"), call(g, "p1s", "latest", true)];
    expect(await g.onRoots("p1s", untied())).toEqual([{ uri: "file:///first" }]);
    expect([latest.asked, first.asked]).toEqual([["roots/list"], ["roots/list"]]);
  });

  it("a question goes to the owner's next call in flight", async () => {
    const g = gateway();
    const [first, latest] = [call(g, "p1s", "first"), call(g, "p1s", "latest", true)];
    expect(await g.onSampling("p1s", sampling, untied())).toMatchObject({ content: { text: "sampled-in-first" } });
    expect([latest.asked, first.asked]).toEqual([["sampling/createMessage"], ["sampling/createMessage"]]);
  });

  it("with every call ending: no roots, and a question is refused", async () => {
    const g = gateway();
    const [first, latest] = [call(g, "p1s", "first", true), call(g, "p1s", "latest", true)];
    expect(await g.onRoots("p1s", untied())).toEqual([]);
    expect([latest.asked, first.asked]).toEqual([["roots/list"], ["roots/list"]]);
    await expect(g.onSampling("p1s", sampling, untied())).rejects.toThrow(/cannot tell which caller/);
  });

  it("a tied request stays with its call: no roots when it ended, none asked of another call", async () => {
    const g = gateway();
    const [other, tied] = [call(g, "p1h", "other"), call(g, "p1h", "tied", true)];
    const context = { signal: new AbortController().signal, relatedTo: tied } as RequestContext;
    expect(await g.onRoots("p1h", context)).toEqual([]);
    await expect(g.onSampling("p1h", sampling, context)).rejects.toBeInstanceOf(CallEndedError);
    expect(other.asked).toEqual([]);
  });
});
