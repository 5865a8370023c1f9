// Which of our requests a server's question or log is about: `relatedTo` given with a request comes
// back in the context of what the server sends tied to it (its POST's SSE stream in the 2025 era;
// its `input_required` rounds in 2026-07-28), and never with what nothing ties (stdio, 2025).
import {
  buildProbe1x,
  buildProbeV2,
  probeStdioEntry,
  startSdkServer,
  startV2HttpServer,
  type ProbeAnswer,
  type SdkServer,
  type V2HttpServer,
} from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callTool,
  connectToServer,
  disconnectServer,
  type MCPServerConfig,
  type RequestContext,
} from "../src/index.js";

/** Connects with handlers that answer as the call's `relatedTo` (its tag), and record what each saw. */
async function connectTagged(config: MCPServerConfig) {
  const seen: { kind: string; relatedTo: unknown; text: string }[] = [];
  const tag = (context: { relatedTo?: unknown } | undefined): string =>
    typeof context?.relatedTo === "string" ? context.relatedTo : "untied";
  const connection = await connectToServer("probe", config, {
    onSampling: async (params, context: RequestContext) => {
      seen.push({ kind: "sampling", relatedTo: context.relatedTo, text: JSON.stringify(params.messages) });
      return { role: "assistant", content: { type: "text", text: `sampled-for-${tag(context)}` }, model: "m" };
    },
    onElicitation: async (params, context) => {
      seen.push({ kind: "elicitation", relatedTo: context.relatedTo, text: params.message });
      return { action: "accept", content: { answer: `elicited-for-${tag(context)}` } };
    },
    roots: (context) => [{ uri: `file:///${tag(context)}` }],
    onLog: (message, context) =>
      void seen.push({ kind: "log", relatedTo: context?.relatedTo, text: String(message.data) }),
  });
  const probe = async (secret: string): Promise<ProbeAnswer> => {
    const result = await callTool(connection, "probe", { secret, steps: 1, delayMs: 50 }, { relatedTo: secret });
    return JSON.parse((result.content[0] as { text: string }).text) as ProbeAnswer;
  };
  return { connection, seen, probe };
}

describe("relatedTo: what the server sends about a request carries the request's tag", () => {
  let http1: SdkServer;
  let http2: V2HttpServer;
  beforeAll(async () => {
    http1 = await startSdkServer({ build: buildProbe1x });
    http2 = await startV2HttpServer({ legacy: "reject", build: buildProbeV2 });
  });
  afterAll(async () => {
    await http1.stop();
    await http2.stop();
  });

  it.each([
    ["2025, Streamable HTTP (the POST's stream)", () => ({ type: "http" as const, url: http1.url })],
    ["2026-07-28, Streamable HTTP (input_required rounds)", () => ({ type: "http" as const, url: http2.url })],
    ["2026-07-28, stdio (input_required rounds)", () => ({ command: process.execPath, args: [probeStdioEntry, "v2"] })],
  ])("%s: two concurrent calls, each question answered for its own call", async (_name, config) => {
    const { connection, seen, probe } = await connectTagged(config());
    try {
      const [a, b] = await Promise.all([probe("a"), probe("b")]);
      expect(a).toEqual({ secret: "a", sampled: "sampled-for-a", elicited: "elicited-for-a", roots: ["file:///a"] });
      expect(b).toEqual({ secret: "b", sampled: "sampled-for-b", elicited: "elicited-for-b", roots: ["file:///b"] });
      // Each question (and, over HTTP, each log) carried the tag of the call it was about.
      const words: Record<string, string> = { sampling: "sample", elicitation: "elicit", log: "log" };
      const tagged = seen.filter((e) => e.relatedTo !== undefined);
      expect(
        tagged
          .filter((e) => e.kind === "sampling")
          .map((e) => e.relatedTo)
          .sort(),
      ).toEqual(["a", "b"]);
      for (const entry of tagged) expect(entry.text).toContain(`${words[entry.kind]!} ${String(entry.relatedTo)}`);
      if ("url" in config()) expect(seen.filter((e) => e.kind === "log" && e.relatedTo === undefined)).toEqual([]);
    } finally {
      await disconnectServer(connection);
    }
  });

  it("2025, stdio: nothing ties a question to a call, so none carries a tag", async () => {
    const { connection, seen, probe } = await connectTagged({
      command: process.execPath,
      args: [probeStdioEntry, "1x"],
    });
    try {
      expect(await probe("a")).toEqual({
        secret: "a",
        sampled: "sampled-for-untied",
        elicited: "elicited-for-untied",
        roots: ["file:///untied"],
      });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((entry) => entry.relatedTo === undefined)).toBe(true);
    } finally {
      await disconnectServer(connection);
    }
  });
});
