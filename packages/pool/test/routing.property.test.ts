// The routing property, as in the gateway's trust test: whatever the interleaving of calls from
// several host sessions (two sharing one server-everything, two that declare sampling and so get
// one each), every answer, every progress notification and every sampling question reaches the
// session whose call it belongs to, and no other.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";
import { host, type TestHost } from "./helpers.js";

type Kind = "echo" | "progress" | "sample";

interface Session {
  host: TestHost;
  tag: string;
  samples: boolean;
  /** The prompts of the sampling questions this session was asked. */
  asked: string[];
}

const pool = new ServerPool();
const sessions: Session[] = [];

beforeAll(async () => {
  for (const [tag, samples] of [
    ["plain-0", false],
    ["plain-1", false],
    ["sampling-2", true],
    ["sampling-3", true],
  ] as const) {
    const session: Session = { tag, samples, asked: [], host: undefined as never };
    session.host = host(pool, (method, params: { messages: { content: { text: string } }[] }) => {
      if (method !== "sampling/createMessage") return {};
      session.asked.push(params.messages[0]!.content.text);
      return { role: "assistant", content: { type: "text", text: `answer from ${tag}` }, model: "test" };
    });
    await session.host.initialize(samples ? { sampling: {} } : {});
    sessions.push(session);
  }
  expect(
    pool
      .statuses()
      .map((s) => `${s.sharing}:${s.hosts.length}`)
      .sort(),
  ).toEqual(["dedicated:1", "dedicated:1", "shared:2"]);
}, 60_000);

afterAll(() => pool.close());

let round = 0;

describe("routing across host sessions (property)", () => {
  it("answers, progress and questions reach only the session whose call they belong to", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            session: fc.nat({ max: 3 }),
            kind: fc.constantFrom<Kind>("echo", "progress", "sample"),
            steps: fc.integer({ min: 1, max: 3 }),
            startMs: fc.integer({ min: 0, max: 40 }),
          }),
          { minLength: 2, maxLength: 8 },
        ),
        async (ops) => {
          round += 1;
          for (const s of sessions) {
            s.asked.length = 0;
            s.host.notifications.length = 0;
          }
          const runs = ops.map(async (op, k) => {
            const s = sessions[op.session]!;
            const kind: Kind = op.kind === "sample" && !s.samples ? "echo" : op.kind;
            const mark = `r${round}-op${k}-${s.tag}`;
            await new Promise((resolve) => setTimeout(resolve, op.startMs)); // the interleaving, not a wait for anything
            if (kind === "echo") {
              const answer = await s.host.request("tools/call", { name: "echo", arguments: { message: mark } });
              expect(answer.result.content[0].text).toBe(`Echo: ${mark}`);
            } else if (kind === "progress") {
              const answer = await s.host.request("tools/call", {
                name: "trigger-long-running-operation",
                arguments: { duration: 0.03 * op.steps, steps: op.steps },
                _meta: { progressToken: mark },
              });
              expect(answer.result.content[0].text).toContain(`Steps: ${op.steps}`);
            } else {
              const answer = await s.host.request("tools/call", {
                name: "trigger-sampling-request",
                arguments: { prompt: mark, maxTokens: 5 },
              });
              expect(answer.result.content[0].text).toContain(`answer from ${s.tag}`);
            }
            return { s, kind, mark, steps: op.steps };
          });
          const done = await Promise.all(runs);
          for (const { s, kind, mark, steps } of done) {
            const withToken = sessions.map(
              (other) =>
                other.host.notifications.filter(
                  (n) => n.method === "notifications/progress" && n.params.progressToken === mark,
                ).length,
            );
            expect(withToken).toEqual(sessions.map((other) => (other === s && kind === "progress" ? steps : 0)));
            const askedAbout = sessions.map((other) => other.asked.filter((prompt) => prompt.includes(mark)).length);
            expect(askedAbout).toEqual(sessions.map((other) => (other === s && kind === "sample" ? 1 : 0)));
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
