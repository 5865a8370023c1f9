// Several callers, each with two 2025 sessions that can be asked (sampling, elicitation, roots: the
// official SDK 1.x client), calling at once through one gateway (its fast path on, unless the run
// turns it off: then the same property holds on the SDK's path). Whatever calls and interleaving
// fast-check picks, every question a server asks about a call reaches only that call's caller: its
// own session when the server ties the question to the call (the probe over Streamable HTTP), one
// of its caller's sessions when the server cannot (the probe over stdio, where each caller has a
// process of its own). And no session is ever asked about another caller's call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { buildProbe1x, probeStdioEntry, startSdkServer, type ProbeAnswer, type SdkServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Caller } from "../src/index.js";
import { mountGateway, type Mounted } from "./app.js";
import type * as SessionFast from "../src/session-fast.js";

/** How many tools/call requests the fast path served. */
const served = vi.hoisted(() => ({ calls: 0 }));
vi.mock("../src/session-fast.js", async (importOriginal) => {
  const original = await importOriginal<typeof SessionFast>();
  return {
    ...original,
    serveInSession: (...args: Parameters<typeof original.serveInSession>): boolean => {
      const taken = original.serveInSession(...args);
      if (taken && args[1].method === "tools/call") served.calls++;
      return taken;
    },
  };
});

const USERS = new Map<string, Caller>(
  ["ann", "ben", "cyd"].map((name) => [`key-${name}-0123456789`, { id: `u-${name}`, name }]),
);

interface Session {
  tag: string;
  caller: string;
  client: Client;
  /** The secrets of the calls this session was asked about (sampling and elicitation carry them). */
  asked: string[];
}

describe("callers asked at once: each question reaches only its caller", () => {
  let probe: SdkServer;
  let mounted: Mounted;
  const sessions: Session[] = [];

  beforeAll(async () => {
    probe = await startSdkServer({ build: buildProbe1x });
    mounted = await mountGateway(
      {
        http: { type: "http", url: probe.url },
        stdio: { command: process.execPath, args: [probeStdioEntry, "1x"] },
      },
      { authenticate: (req) => USERS.get(String(req.headers["x-api-key"])), callers: [...USERS.values()] },
    );
    for (const [key, caller] of USERS)
      for (const n of [1, 2]) {
        const tag = `${caller.name}${n}`;
        const client = new Client(
          { name: tag, version: "1" },
          { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
        );
        const session: Session = { tag, caller: caller.name, client, asked: [] };
        client.setRequestHandler(CreateMessageRequestSchema, (request) => {
          const content = request.params.messages[0]?.content as { text?: string } | undefined;
          session.asked.push(String(content?.text).replace(/^sample /, ""));
          return { role: "assistant", content: { type: "text", text: `by ${tag}` }, model: "m" };
        });
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          session.asked.push(request.params.message.replace(/^elicit /, ""));
          return { action: "accept", content: { answer: `by ${tag}` } };
        });
        client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: `file:///${tag}` }] }));
        await client.connect(
          new StreamableHTTPClientTransport(new URL(mounted.url), { requestInit: { headers: { "x-api-key": key } } }),
        );
        sessions.push(session);
      }
  });

  afterAll(async () => {
    for (const session of sessions) await session.client.close();
    await mounted?.stop();
    await probe?.stop();
  });

  it("whatever the calls and their interleaving", { timeout: 180_000 }, async () => {
    let run = 0;
    const callerOf = (tag: string): string => tag.slice(0, -1);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            session: fc.nat({ max: 5 }),
            server: fc.constantFrom("http", "stdio"),
            delayMs: fc.integer({ min: 0, max: 10 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (ops) => {
          run++;
          for (const session of sessions) session.asked.length = 0;
          const before = served.calls;
          const done = await Promise.all(
            ops.map(async (op, i) => {
              const session = sessions[op.session]!;
              // The secret names the calling session, the server and the call.
              const secret = `${session.tag}/${op.server}/${run}.${i}`;
              const result = await session.client.callTool({
                name: `${op.server}__probe`,
                arguments: { secret, steps: 1, delayMs: op.delayMs },
              });
              const answer = JSON.parse((result.content as { text: string }[])[0]!.text) as ProbeAnswer;
              return { op, session, secret, answer };
            }),
          );
          for (const { op, session, secret, answer } of done) {
            expect(answer.secret).toBe(secret);
            const answered = [answer.sampled, answer.elicited, answer.roots[0]].map((a) =>
              String(a).replace(/^by |^file:\/\/\//, ""),
            );
            // Tied to the call: its own session answered; untied: one of its caller's sessions did.
            for (const tag of answered)
              if (op.server === "http") expect(tag).toBe(session.tag);
              else expect(callerOf(tag)).toBe(session.caller);
          }
          for (const session of sessions)
            for (const secret of session.asked) {
              const [tag, server] = secret.split("/");
              if (server === "http") expect(tag).toBe(session.tag);
              else expect(callerOf(tag!)).toBe(session.caller);
            }
          // Each call was asked its sampling and elicitation question exactly once, somewhere.
          const asked = sessions.flatMap((s) => s.asked).sort();
          expect(asked).toEqual(done.flatMap((d) => [d.secret, d.secret]).sort());
          expect(served.calls - before).toBe(process.env["MCP_GATEWAY_TEST_PATH"] === "sdk" ? 0 : ops.length);
        },
      ),
      { numRuns: 10 },
    );
  });
});
