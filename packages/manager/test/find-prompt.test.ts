// findPrompt against server-everything twice over stdio: one prompt by `server.prompt` or a bare
// name; a bare name two servers offer, and one nobody offers, are PromptNotFoundErrors in words.
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPrompt, MCPManager, MemoryPinStore, PromptNotFoundError } from "../src/index.js";

const everything = { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 };
const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false });
beforeAll(() => manager.connectServers({ a: everything, b: everything }));
afterAll(() => manager.disconnectAll());

const failure = (promise: Promise<unknown>): Promise<PromptNotFoundError> =>
  promise.then(
    () => {
      throw new Error("found");
    },
    (error: unknown) => {
      expect(PromptNotFoundError.isInstance(error)).toBe(true);
      return error as PromptNotFoundError;
    },
  );

describe("findPrompt", () => {
  it("server.prompt names one; a bare name offered by one server asked is that one", async () => {
    const dotted = await findPrompt(manager, "b.simple-prompt", ["a", "b"]);
    expect([dotted.server, dotted.prompt.name]).toEqual(["b", "simple-prompt"]);
    const bare = await findPrompt(manager, "simple-prompt", ["b"], "b");
    expect([bare.server, bare.prompt.name]).toEqual(["b", "simple-prompt"]);
  });

  it("a name several servers offer: ambiguous, each as server.prompt", async () => {
    const error = await failure(findPrompt(manager, "simple-prompt", ["a", "b"]));
    expect(error.message).toBe(
      'prompt "simple-prompt" is offered by several servers: a.simple-prompt, b.simple-prompt',
    );
    expect(error.ambiguous).toEqual(["a.simple-prompt", "b.simple-prompt"]);
    expect(error.near).toEqual([]);
  });

  it("a name nobody offers: the closest names, as server.prompt, or the prompts' own on a named server", async () => {
    const anywhere = await failure(findPrompt(manager, "simple-promt", ["a"]));
    expect(anywhere.message).toBe('unknown prompt "simple-promt"; did you mean "a.simple-prompt"?');
    expect([anywhere.code, anywhere.serverName, anywhere.near]).toEqual([
      "unknown_prompt",
      undefined,
      ["a.simple-prompt"],
    ]);
    const named = await failure(findPrompt(manager, "simple-promt", ["a"], "a"));
    expect(named.message).toBe('unknown prompt "simple-promt" on server "a"; did you mean "simple-prompt"?');
    expect((await failure(findPrompt(manager, "zzz", ["a"], "a"))).message).toBe('unknown prompt "zzz" on server "a"');
  });
});
