// lazyCallHandler on a real daemon: the handler is loaded with the first call (not when the daemon
// starts), once, and a handler without serversOf has every server of the call's configs.
import { describe, expect, it } from "vitest";
import { CALL_METHOD, daemonRequest } from "../src/client.js";
import { lazyCallHandler, type CallHandler, type CallParams } from "../src/index.js";
import { daemonSandbox, everything } from "./helpers.js";

const box = daemonSandbox("mcp-lazy-call-");

/** A call of `words` with two stdio servers, as a client sends it. */
function callOf(words: string[]): Record<string, unknown> {
  return {
    configs: { one: { ...everything, cwd: box.dir }, two: { ...everything, cwd: box.dir } },
    servers: {},
    environment: {},
    words,
    cwd: box.dir,
  };
}

describe("lazyCallHandler", () => {
  it("loads the handler with the first call, once; without its own serversOf, a call may start every server", async () => {
    let loads = 0;
    const seen: string[][] = [];
    const handler: CallHandler = {
      async run(params: CallParams) {
        seen.push(params.words);
        return { words: params.words };
      },
    };
    const lazy = lazyCallHandler(async () => (loads++, handler));
    await box.start({ call: lazy });
    await daemonRequest(box.socket, "status", {});
    expect(loads).toBe(0);
    expect(await daemonRequest(box.socket, CALL_METHOD, callOf(["a"]))).toEqual({ words: ["a"] });
    expect(await daemonRequest(box.socket, CALL_METHOD, callOf(["b"]))).toEqual({ words: ["b"] });
    expect(loads).toBe(1);
    expect(seen).toEqual([["a"], ["b"]]);
    expect(await lazy.serversOf!(callOf([]) as unknown as CallParams)).toEqual(["one", "two"]);
  });

  it("a load that failed is tried again with the next call (a failure is not kept for the daemon's life)", async () => {
    let loads = 0;
    const lazy = lazyCallHandler(async () => {
      loads++;
      if (loads === 1) throw new Error("EMFILE: too many open files, open 'call-handler.js'");
      return { run: async (params: CallParams) => ({ words: params.words }) };
    });
    await box.start({ call: lazy });
    await expect(daemonRequest(box.socket, CALL_METHOD, callOf(["a"]))).rejects.toThrow("EMFILE");
    expect(await daemonRequest(box.socket, CALL_METHOD, callOf(["b"]))).toEqual({ words: ["b"] });
    expect(await daemonRequest(box.socket, CALL_METHOD, callOf(["c"]))).toEqual({ words: ["c"] });
    expect(loads).toBe(2);
  });

  it("asks the loaded handler's serversOf when it has one", async () => {
    const lazy = lazyCallHandler(async () => ({ serversOf: () => ["one"], run: async () => null }));
    expect(await lazy.serversOf!(callOf([]) as unknown as CallParams)).toEqual(["one"]);
  });
});
