// A 2025 session whose caller declared sampling, elicitation or roots (Claude Code, VS Code and
// Cursor declare roots; many clients sampling or elicitation), on the fast path (session-fast.ts)
// and on the SDK's: two gateways over one manager (parity.ts), one with the fast path and one
// without, each get a raw session per 2025 revision and the same raw call. During the call the
// upstream asks the caller — the probe (SDK 1.x over Streamable HTTP: a sampling, an elicitation and
// a roots question about the call) and server-everything (its sampling and elicitation tools) — and
// a raw caller answers each question as it arrives. Everything on the wire must be the same bytes
// on both: the call's status, headers and event stream (logs, each question with its id, the
// answer), and each answer's own exchange. Every such call must have taken the fast path.
import { startEverything, type EverythingServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuditEntry } from "../src/index.js";
import { startParityPair, TOKENS, type Kind, type ParityPair } from "./parity.js";
import type * as SessionFast from "../src/session-fast.js";

/** How many requests the fast path served: a parity case proves nothing unless it took that path. */
const served = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/session-fast.js", async (importOriginal) => {
  const original = await importOriginal<typeof SessionFast>();
  return {
    ...original,
    serveInSession: (...args: Parameters<typeof original.serveInSession>): boolean => {
      const taken = original.serveInSession(...args);
      if (taken) served.count++;
      return taken;
    },
  };
});

const REVISIONS = ["2025-03-26", "2025-06-18", "2025-11-25"] as const;
const ASKING = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

interface Session {
  kind: Kind;
  token: string;
  id: string;
  revision: string;
}

type Message = Record<string, unknown>;
/** How the raw caller answers a question: a result, or an error. */
type Answer = (question: Message) => { result: unknown } | { error: { code: number; message: string } };

/** The caller's answers: a sampled text, an accepted (or declined) elicitation, its roots. */
const answering =
  (elicitation: "accept" | "decline" = "accept"): Answer =>
  (question) => {
    if (question["method"] === "sampling/createMessage")
      return { result: { role: "assistant", content: { type: "text", text: "sampled-by-caller" }, model: "m" } };
    if (question["method"] === "elicitation/create")
      return {
        result:
          elicitation === "accept"
            ? { action: "accept", content: { answer: "elicited-by-caller" } }
            : { action: "decline" },
      };
    return { result: { roots: [{ uri: "file:///caller-root", name: "root" }] } };
  };

/** A caller that will not sample: an error answer to that question, the others answered. */
const refusingSampling: Answer = (question) =>
  question["method"] === "sampling/createMessage"
    ? { error: { code: -32603, message: "the user said no" } }
    : answering()(question);

describe("a 2025 session whose caller can be asked: the fast path asks it as the SDK server does", () => {
  let pair: ParityPair;
  let everything: EverythingServer;

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    pair = await startParityPair({ everything: { type: "http", url: everything.url } });
    // server-everything lists its sampling and elicitation tools once it knows its client can be asked (after initialization).
    const ready = (): boolean => pair.manager.getTools().some((t) => t.toolName === "trigger-elicitation-request");
    if (!ready())
      await new Promise<void>((resolve) => {
        const off = pair.manager.onToolsChanged(() => {
          if (!ready()) return;
          off();
          resolve();
        });
      });
  });

  afterAll(async () => {
    await pair?.stop();
    await everything?.stop();
  });

  const token = [...TOKENS].find(([, c]) => c.name === "alice")![0];
  const headersOf = (session: Session): Record<string, string> => ({
    authorization: `Bearer ${session.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": session.id,
    "mcp-protocol-version": session.revision,
  });

  /** Opens a raw session declaring `capabilities`: initialize, then initialized. */
  async function open(kind: Kind, revision: string, capabilities: unknown): Promise<Session> {
    const init = await fetch(pair.urls[kind], {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: revision, capabilities, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const session = { kind, token, id: init.headers.get("mcp-session-id")!, revision };
    expect(await init.text()).toContain(`"protocolVersion":"${revision}"`);
    const initialized = await fetch(pair.urls[kind], {
      method: "POST",
      headers: headersOf(session),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    return session;
  }

  const head = (response: Response): string =>
    `${response.status}\n${[...response.headers]
      .filter(([name]) => name !== "date")
      .map(([n, v]) => `${n}: ${v}`)
      .join("\n")}`;

  /**
   * Sends `message` on the session and reads its stream to the end, answering each question on it
   * (a POST of the session) the moment it arrives: the whole exchange, as the caller saw it.
   */
  async function converse(session: Session, message: unknown, answer: Answer): Promise<string> {
    const url = pair.urls[session.kind];
    const response = await fetch(url, { method: "POST", headers: headersOf(session), body: JSON.stringify(message) });
    const out = [head(response), ""];
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
        const event = buffer.slice(0, at + 2);
        buffer = buffer.slice(at + 2);
        out.push(event);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        const sent = data === undefined ? undefined : (JSON.parse(data) as Message);
        if (sent === undefined || typeof sent["method"] !== "string" || sent["id"] === undefined) continue;
        const reply = await fetch(url, {
          method: "POST",
          headers: headersOf(session),
          body: JSON.stringify({ jsonrpc: "2.0", id: sent["id"], ...answer(sent) }),
        });
        out.push(`[answered ${String(sent["method"])}: ${head(reply)}\n${await reply.text()}]\n`);
      }
    }
    out.push(buffer);
    return out.join("\n").replaceAll(session.id, "<session>");
  }

  const call = (id: number, name: string, args: unknown): unknown => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });

  const cases: [string, unknown, unknown, Answer, string][] = [
    [
      "the probe: logs, then a sampling, an elicitation and a roots question about the call",
      ASKING,
      call(2, "p1h__probe", { secret: "s1" }),
      answering(),
      '\\"roots\\":[\\"file:///caller-root\\"]',
    ],
    [
      "the probe, the caller refusing to sample (an error answer)",
      ASKING,
      call(3, "p1h__probe", { secret: "s2" }),
      refusingSampling,
      "the user said no",
    ],
    [
      "the probe, to a caller that declared roots only: its sampling refused by the gateway",
      { roots: {} },
      call(4, "p1h__probe", { secret: "s3", steps: 1 }),
      answering(),
      "does not support sampling/createMessage",
    ],
    [
      "the probe with a progress token: its progress, logs and questions on the call's stream",
      ASKING,
      {
        jsonrpc: "2.0",
        id: 8,
        method: "tools/call",
        params: { name: "p1h__probe", arguments: { secret: "s4", steps: 2 }, _meta: { progressToken: "pt" } },
      },
      answering(),
      '"progressToken":"pt","progress":2',
    ],
    [
      "server-everything's sampling tool",
      ASKING,
      call(5, "everything__trigger-sampling-request", { prompt: "p", maxTokens: 5 }),
      answering(),
      "sampled-by-caller",
    ],
    [
      "server-everything's elicitation tool, declined",
      { elicitation: {} },
      call(6, "everything__trigger-elicitation-request", {}),
      answering("decline"),
      "User declined",
    ],
    [
      "a call that asks nothing, of a caller that declared roots",
      { roots: { listChanged: true } },
      call(7, "odd__echo", { text: "r" }),
      answering(),
      '"text":"r"',
    ],
  ];

  describe.each(REVISIONS)("revision %s", (revision) => {
    it.each(cases)("%s", async (_label, capabilities, message, answer, expected) => {
      const [fast, sdk] = [await open("fast", revision, capabilities), await open("sdk", revision, capabilities)];
      const before = served.count;
      const answers = [await converse(fast, message, answer), await converse(sdk, message, answer)];
      expect(served.count).toBe(before + 1);
      // The whole exchange, progress included (a call's outbox keeps the server's order on both paths).
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).toMatch(/^200\n/);
      expect(answers[0]).toContain(expected);
    });
  });

  it("two calls of one session asked at once: each question on its own call's stream, ids as the SDK gives them", async () => {
    const [fast, sdk] = [await open("fast", "2025-11-25", ASKING), await open("sdk", "2025-11-25", ASKING)];
    const before = served.count;
    const both = async (session: Session): Promise<string[]> =>
      Promise.all([
        converse(session, call(8, "p1h__probe", { secret: "a", steps: 1 }), answering()),
        converse(session, call(9, "p1h__probe", { secret: "b", steps: 1 }), answering()),
      ]);
    const [onFast, onSdk] = [await both(fast), await both(sdk)];
    expect(served.count).toBe(before + 2);
    for (const [i, secret] of ["a", "b"].entries()) {
      for (const text of [onFast[i]!, onSdk[i]!]) {
        expect(text).toContain(`sample ${secret}`);
        expect(text).not.toContain(`sample ${secret === "a" ? "b" : "a"}`);
      }
      // The server numbers its questions as the two calls happen to interleave; the rest is the same.
      const ids = (text: string): string => text.replace(/"id":\d+\}/g, '"id":N}');
      expect(ids(onFast[i]!)).toBe(ids(onSdk[i]!));
    }
  });

  it("the same audit entries, but for their times", () => {
    const strip = (entries: AuditEntry[]): unknown[] =>
      entries
        .filter((e) => e.method === "tools/call")
        .map(({ time: _time, durationMs: _durationMs, ...rest }) => JSON.stringify(rest))
        // Two calls ran at once: their entries in either order.
        .sort();
    expect(strip(pair.audits.fast).length).toBeGreaterThanOrEqual(cases.length * REVISIONS.length);
    expect(strip(pair.audits.fast)).toEqual(strip(pair.audits.sdk));
  });
});
