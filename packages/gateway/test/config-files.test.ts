// The gateway's callers and views files are config: each problem in them is an InvalidConfigError
// (code "invalid_config") naming the file and the field, with the message saying what is wrong.
import { InvalidConfigError } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { describe, expect, it } from "vitest";
import { createGateway, parseCallers, parseViews } from "../src/index.js";

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

const TOKEN = "alice-token-0123456789";

describe("callers file problems", () => {
  const cases: { text: string; field: string | undefined; says: string }[] = [
    { text: "{ nope", field: undefined, says: "callers.json: not JSON (" },
    {
      text: "[]",
      field: undefined,
      says: 'callers.json: expected an object of callers, { "<name>": { "token": "…" } }',
    },
    {
      text: `{ "a": { "token": "${TOKEN}" }, "a": { "token": "${TOKEN}x" } }`,
      field: "a",
      says: 'callers.json: caller "a" is named twice',
    },
    {
      text: JSON.stringify({ alice: { token: "short" } }),
      field: "alice.token",
      says: 'callers.json: caller "alice": "token" must be a string of at least 16 characters',
    },
    {
      text: JSON.stringify({ alice: { token: TOKEN, deny: [1] } }),
      field: "alice.deny",
      says: '"deny" must be an array of strings',
    },
    {
      text: JSON.stringify({ alice: { token: TOKEN, view: 3 } }),
      field: "alice.view",
      says: '"view" must be the name of a view',
    },
    {
      text: JSON.stringify({ alice: { token: TOKEN, rate: "fast" } }),
      field: "alice.rate",
      says: '"rate" must be a rate like "100/min"',
    },
    {
      text: JSON.stringify({ alice: { token: TOKEN, burst: 3 } }),
      field: "alice.burst",
      says: '"burst" needs a "rate"',
    },
    {
      text: JSON.stringify({ alice: { token: TOKEN, rates: { "crm__*": "often" } } }),
      field: "alice.rates.crm__*",
      says: '"rates.crm__*" must be a rate',
    },
    {
      text: JSON.stringify({ alice: { token: TOKEN }, bob: { token: TOKEN } }),
      field: "bob.token",
      says: "its token is also another caller's",
    },
  ];
  it.each(cases)("$says", ({ text, field, says }) => {
    const error = thrown(() => parseCallers(text, "callers.json"));
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "invalid_config", file: "callers.json", field });
    expect((error as Error).message).toContain(says);
  });
});

describe("views problems", () => {
  const cases: { views: unknown; field: string; says: string }[] = [
    { views: [], field: "views", says: 'mcp-client.json: "views" must be an object of views' },
    {
      views: { "bad name": { tools: [] } },
      field: "views.bad name",
      says: `view "bad name": a view's name is letters`,
    },
    {
      views: { ops: { tools: "x" } },
      field: "views.ops.tools",
      says: 'view "ops": "tools" must be an array of <server>__<tool> patterns',
    },
    {
      views: { ops: { tools: [], describe: { a: 1 } } },
      field: "views.ops.describe",
      says: '"describe" must be an object of strings',
    },
    {
      views: { ops: { tools: [], rename: { a__b: "x__y" } } },
      field: "views.ops.rename.a__b",
      says: 'rename of "a__b" to "x__y"',
    },
    {
      views: { ops: { tools: [], rename: { a__b: "same", c__d: "same" } } },
      field: "views.ops.rename",
      says: 'two tools are renamed "same"',
    },
  ];
  it.each(cases)("$says", ({ views, field, says }) => {
    const error = thrown(() => parseViews(views, "mcp-client.json"));
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "invalid_config", file: "mcp-client.json", field });
    expect((error as Error).message).toContain(says);
  });
});

describe("a caller given a view the gateway does not have", () => {
  it("is an InvalidConfigError on the caller's view field", () => {
    const manager = new MCPManager({ reconnect: false });
    const callers = parseCallers(JSON.stringify({ alice: { token: TOKEN, view: "missing" } }), "callers.json");
    const error = thrown(() => createGateway(manager, { tokens: callers }));
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "invalid_config", field: "view" });
    expect((error as Error).message).toBe(
      'caller "alice" is given the view "missing", which is not one of the gateway\'s views (none)',
    );
    const gateway = createGateway(manager, {});
    const stdioError = thrown(() => gateway.serveStdio({ caller: { id: "stdio", name: "stdio", view: "missing" } }));
    expect(stdioError).toMatchObject({ code: "invalid_config", field: "view" });
  });
});
