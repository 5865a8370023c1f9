// Callers and upstreams for the gateway's trust tests. The upstreams are the probe (mcp-test-utils)
// on both official SDKs, over stdio and Streamable HTTP; the callers are the official SDK clients
// (1.x for the 2025 era, v2 pinned to 2026-07-28), each answering every question with its own name
// and recording everything the gateway sent it.
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import fc from "fast-check";
import { expect } from "vitest";
import {
  buildProbe1x,
  buildProbeV2,
  probeStdioEntry,
  startSdkServer,
  startV2HttpServer,
  type ProbeAnswer,
} from "mcp-test-utils";
import { sandbox, userConfig, type Sandbox } from "./helpers.js";
import { stdioParams } from "./serve-helpers.js";

/** The probe upstreams: `p1s`/`p1h` on SDK 1.x (2025) over stdio/HTTP, `p2s`/`p2h` on SDK v2 (2026-07-28) over stdio/HTTP. */
export const PROBES = ["p1s", "p1h", "p2s", "p2h"] as const;
export type Probe = (typeof PROBES)[number];

/** Probes whose questions, logs and progress a server ties to the call (everything but a 2025-era stdio server's questions and logs). */
export function tiesQuestions(probe: Probe): boolean {
  return probe !== "p1s";
}

export interface ProbeBox {
  box: Sandbox;
  /** The in-process HTTP probes. */
  urls: { p1h: string; p2h: string };
  /** A callers file with the callers named (tokens `<name>-token-0123456789`). */
  callersFile(names: readonly string[]): string;
  stop(): Promise<void>;
}

/** A sandbox configured with the four probes (the two HTTP ones run in this process). */
export async function probeBox(): Promise<ProbeBox> {
  const box = sandbox();
  const http1 = await startSdkServer({ build: buildProbe1x });
  const http2 = await startV2HttpServer({ legacy: "reject", build: buildProbeV2 });
  userConfig(box, {
    p1s: { command: process.execPath, args: [probeStdioEntry, "1x"] },
    p1h: { type: "http", url: http1.url },
    p2s: { command: process.execPath, args: [probeStdioEntry, "v2"] },
    p2h: { type: "http", url: http2.url },
  });
  return {
    box,
    urls: { p1h: http1.url, p2h: http2.url },
    callersFile: (names) =>
      box.write(
        `${box.project}/callers.json`,
        Object.fromEntries(names.map((name) => [name, { token: tokenOf(name) }])),
      ),
    stop: async () => {
      await Promise.all([http1.stop(), http2.stop()]);
      box.remove();
    },
  };
}

export function tokenOf(name: string): string {
  return `${name}-token-0123456789`;
}

/** What one caller received from the gateway. */
export interface Seen {
  questions: string[];
  logs: string[];
  progress: string[];
}

/** A caller of either era, answering with its name, recording what it is sent. */
export interface TrustCaller {
  name: string;
  era: "2025" | "2026";
  seen: Seen;
  /** Calls `<probe>__probe` and returns what the probe was told. */
  probe(
    probe: Probe,
    secret: string,
    options?: { steps?: number; delayMs?: number; onProgress?: () => void },
  ): Promise<ProbeAnswer>;
  /** The names of the tools it is shown. */
  list(): Promise<string[]>;
  close(): Promise<void>;
}

const sampledBy = (name: string) => ({
  role: "assistant" as const,
  content: { type: "text" as const, text: `sampled-by-${name}` },
  model: "caller",
  stopReason: "endTurn",
});
const elicitedBy = (name: string) => ({ action: "accept" as const, content: { answer: `elicited-by-${name}` } });
const rootsOf = (name: string) => ({ roots: [{ uri: `file:///${name}`, name }] });

function parse(result: unknown): ProbeAnswer {
  const text = ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .map((c) => c.text ?? "")
    .join("");
  if (!text.startsWith("{")) throw new Error(`the probe answered: ${text}`);
  return JSON.parse(text) as ProbeAnswer;
}

function textOfMessage(params: unknown): string {
  const first = (params as { messages?: { content?: { text?: string } }[] }).messages?.[0]?.content?.text;
  return first ?? "";
}

/**
 * A caller on the SDK 1.x client (the 2025 era): a session of its own on the gateway's HTTP front
 * at `url` (sending `token`), or, given a sandbox, a gateway of its own over stdio (`mcp serve --stdio`).
 */
export async function caller2025(name: string, url: string | Sandbox, token = tokenOf(name)): Promise<TrustCaller> {
  const client = new Client1(
    { name, version: "1" },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  const seen: Seen = { questions: [], logs: [], progress: [] };
  client.setRequestHandler(
    CreateMessageRequestSchema,
    (request) => (seen.questions.push(textOfMessage(request.params)), sampledBy(name)),
  );
  client.setRequestHandler(
    ElicitRequestSchema,
    (request) => (seen.questions.push(request.params.message), elicitedBy(name)),
  );
  client.setRequestHandler(ListRootsRequestSchema, () => (seen.questions.push("roots"), rootsOf(name)));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(String(n.params.data)));
  await client.connect(
    typeof url === "string"
      ? new Http1(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
      : new Stdio1(stdioParams(url)),
  );
  return callerOf(name, "2025", seen, (params, options) => client.callTool(params, undefined, options), client);
}

/** A caller on the SDK v2 client pinned to 2026-07-28 (stateless; questions as `input_required` rounds), over HTTP or, given a sandbox, stdio. */
export async function caller2026(name: string, url: string | Sandbox, token = tokenOf(name)): Promise<TrustCaller> {
  const client = new Client2(
    { name, version: "2" },
    { capabilities: { sampling: {}, elicitation: {}, roots: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const seen: Seen = { questions: [], logs: [], progress: [] };
  client.setRequestHandler(
    "sampling/createMessage",
    (request) => (seen.questions.push(textOfMessage(request.params)), sampledBy(name)),
  );
  client.setRequestHandler(
    "elicitation/create",
    (request) => (seen.questions.push(String((request.params as { message?: unknown }).message)), elicitedBy(name)),
  );
  client.setRequestHandler("roots/list", () => (seen.questions.push("roots"), rootsOf(name)));
  client.setNotificationHandler(
    "notifications/message",
    (n) => void seen.logs.push(String((n.params as { data?: unknown }).data)),
  );
  await client.connect(
    typeof url === "string"
      ? new Http2(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
      : new Stdio2(stdioParams(url)),
  );
  return callerOf(name, "2026", seen, (params, options) => client.callTool(params, options), client);
}

/** The caller of either SDK's client: `call` is its `callTool` with the request options where that SDK takes them. */
function callerOf(
  name: string,
  era: TrustCaller["era"],
  seen: Seen,
  call: (
    params: { name: string; arguments: Record<string, unknown> },
    options: { timeout: number; onprogress: (p: { progress: number; message?: string | undefined }) => void },
  ) => Promise<unknown>,
  client: { listTools(): Promise<{ tools: { name: string }[] }>; close(): Promise<void> },
): TrustCaller {
  return {
    name,
    era,
    seen,
    probe: async (probe, secret, options = {}) =>
      parse(
        await call(
          { name: `${probe}__probe`, arguments: { secret, steps: options.steps ?? 2, delayMs: options.delayMs ?? 0 } },
          {
            timeout: 60_000,
            onprogress: (p) => {
              seen.progress.push(p.message ?? "");
              options.onProgress?.();
            },
          },
        ),
      ),
    list: async () => (await client.listTools()).tools.map((t) => t.name),
    close: () => client.close(),
  };
}

/** The secrets a text names (`<caller>:<n>` words). */
export function secretsIn(text: string): string[] {
  return text.match(/\b[a-z]+:\d+\b/g) ?? [];
}

export function forget(callers: readonly TrustCaller[]): void {
  for (const c of callers) c.seen.questions.length = c.seen.logs.length = c.seen.progress.length = 0;
}

/** No caller saw a secret of another's: not in a question, a log message or a progress message. */
export function expectOwnOnly(callers: readonly TrustCaller[]): void {
  for (const c of callers) {
    const all = [...c.seen.questions, ...c.seen.logs, ...c.seen.progress];
    expect(
      all.flatMap(secretsIn).filter((secret) => !secret.startsWith(`${c.name}:`)),
      `${c.name} saw another's: ${JSON.stringify(all)}`,
    ).toEqual([]);
  }
}

/**
 * The property: whatever calls the callers make at once, to whichever upstream, each call is
 * answered by its own caller, a caller whose server ties its questions to the call is asked them,
 * and nobody sees anything of another's.
 */
export async function trafficProperty(callers: readonly TrustCaller[], numRuns: number): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          caller: fc.nat({ max: callers.length - 1 }),
          probe: fc.constantFrom<Probe>(...PROBES),
          steps: fc.integer({ min: 1, max: 3 }),
          delayMs: fc.integer({ min: 0, max: 60 }),
          startMs: fc.integer({ min: 0, max: 60 }),
        }),
        { minLength: 2, maxLength: 8 },
      ),
      async (plan) => {
        run++;
        forget(callers);
        const answers = await Promise.all(
          plan.map(async (step, i) => {
            await new Promise((r) => setTimeout(r, step.startMs));
            const caller = callers[step.caller]!;
            const secret = `${caller.name}:${run * 100 + i}`;
            return { step, caller, secret, answer: await caller.probe(step.probe, secret, step) };
          }),
        );
        for (const { step, caller, secret, answer } of answers) {
          expect(answer).toEqual({
            secret,
            sampled: `sampled-by-${caller.name}`,
            elicited: `elicited-by-${caller.name}`,
            roots: [`file:///${caller.name}`],
          });
          if (tiesQuestions(step.probe))
            expect(caller.seen.questions).toEqual(expect.arrayContaining([`sample ${secret}`, `elicit ${secret}`]));
        }
        expectOwnOnly(callers);
      },
    ),
    { numRuns, endOnFailure: true },
  );
}
