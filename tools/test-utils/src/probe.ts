// The probe: an upstream MCP server for the gateway's trust tests, on both official SDKs. Its tool
// `probe {secret, steps, delayMs}` does, for one call, everything a server can send back to its caller —
// progress and log messages carrying the secret, then a sampling, an elicitation and a roots
// question carrying it, `delayMs` after its progress — and answers with what it was told, so a test sees whose answers reached
// whose call. `flood {count}` sends `count` log messages (1 KB each) before answering.
//   SDK 1.x (2025 era): questions as server→client requests, sent about the call (on its POST's
//   stream over Streamable HTTP; untied over stdio).
//   SDK v2 (2026-07-28 only): questions as `input_required` rounds; logs and progress per round.
import { McpServer as McpServer1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { acceptedContent, inputRequired, inputResponse, McpServer as McpServer2 } from "@modelcontextprotocol/server";
import { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** What the probe answers: the call's secret and what its caller answered. */
export interface ProbeAnswer {
  secret: string;
  sampled: string | undefined;
  elicited: string | undefined;
  roots: string[];
}

/** Where a probe running in this process tells that a call was cancelled: `"cancelled"`, with the tool's name. */
export const probeEvents = new EventEmitter();

const answerSchema = z.object({ answer: z.string() });
const PAD = "x".repeat(1000);

/** The sampling, elicitation and roots questions of one call. */
const questions = (secret: string) => ({
  sampling: {
    messages: [{ role: "user" as const, content: { type: "text" as const, text: `sample ${secret}` } }],
    maxTokens: 10,
  },
  elicitation: {
    message: `elicit ${secret}`,
    requestedSchema: {
      type: "object" as const,
      properties: { answer: { type: "string" as const } },
      required: ["answer"],
    },
  },
});

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

function answered(answer: ProbeAnswer): { content: { type: "text"; text: string }[] } {
  return { content: [{ type: "text", text: JSON.stringify(answer) }] };
}

/** The probe on the SDK 1.x server (the 2025 era). */
export function buildProbe1x(): McpServer1 {
  const server = new McpServer1({ name: "probe-1x", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool(
    "probe",
    {
      description: "Sends its caller progress, logs and questions carrying the secret",
      inputSchema: { secret: z.string(), steps: z.number().int().optional(), delayMs: z.number().optional() },
    },
    async ({ secret, steps = 2, delayMs = 0 }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        if (token !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps, message: `progress ${secret}` },
          });
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: `log ${secret}` },
        });
      }
      await pause(delayMs, extra.signal);
      const { sampling, elicitation } = questions(secret);
      const sampled = await extra.sendRequest(
        { method: "sampling/createMessage", params: sampling },
        CreateMessageResultSchema,
      );
      const elicited = await extra.sendRequest(
        { method: "elicitation/create", params: elicitation },
        ElicitResultSchema,
      );
      const roots = await extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema);
      return answered({
        secret,
        sampled: sampled.content.type === "text" ? sampled.content.text : undefined,
        elicited: typeof elicited.content?.["answer"] === "string" ? elicited.content["answer"] : undefined,
        roots: roots.roots.map((r) => r.uri),
      });
    },
  );
  server.registerTool(
    "flood",
    { description: "Sends `count` log messages of 1 KB, then answers", inputSchema: { count: z.number().int() } },
    async ({ count }, extra) => {
      extra.signal.addEventListener("abort", () => probeEvents.emit("cancelled", "flood"), { once: true });
      for (let i = 0; i < count && !extra.signal.aborted; i++) {
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: `${i} ${PAD}` },
        });
        // Let I/O in now and then (a cancellation among it): the sends themselves never wait.
        if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
      }
      return { content: [{ type: "text", text: `sent ${count}` }] };
    },
  );
  return server;
}

/** The probe on the SDK v2 server (2026-07-28: questions as `input_required` rounds). */
export function buildProbeV2(): McpServer2 {
  const server = new McpServer2({ name: "probe-v2", version: "2.0.0" }, { capabilities: { logging: {} } });
  server.registerTool(
    "probe",
    {
      description: "Sends its caller progress, logs and questions carrying the secret",
      inputSchema: z.object({ secret: z.string(), steps: z.number().int().optional(), delayMs: z.number().optional() }),
    },
    async ({ secret, steps = 2, delayMs = 0 }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps, message: `progress ${secret}` },
          });
        await ctx.mcpReq.log("info", `log ${secret}`);
      }
      const responses = ctx.mcpReq.inputResponses;
      const elicited = acceptedContent(responses, "elicitation", answerSchema);
      if (!elicited) {
        await pause(delayMs, ctx.mcpReq.signal);
        const { sampling, elicitation } = questions(secret);
        return inputRequired({
          inputRequests: {
            sampling: inputRequired.createMessage(sampling),
            elicitation: inputRequired.elicit({ message: elicitation.message, requestedSchema: answerSchema }),
            roots: inputRequired.listRoots(),
          },
          requestState: `probe-${secret}`,
        });
      }
      const sampled = inputResponse(responses, "sampling");
      const roots = inputResponse(responses, "roots");
      return answered({
        secret,
        sampled:
          sampled.kind === "sampling" &&
          sampled.result.content &&
          !Array.isArray(sampled.result.content) &&
          sampled.result.content.type === "text"
            ? sampled.result.content.text
            : undefined,
        elicited: elicited.answer,
        roots: roots.kind === "roots" ? roots.roots.map((r) => r.uri) : [],
      });
    },
  );
  server.registerTool(
    "flood",
    {
      description: "Sends `count` log messages of 1 KB, then answers",
      inputSchema: z.object({ count: z.number().int() }),
    },
    async ({ count }, ctx) => {
      for (let i = 0; i < count; i++) await ctx.mcpReq.log("info", `${i} ${PAD}`);
      return { content: [{ type: "text", text: `sent ${count}` }] };
    },
  );
  return server;
}

/** The probe's stdio entry: `node <entry> 1x` (SDK 1.x, 2025 era) or `node <entry> v2` (SDK v2, 2026-07-28 only). */
export const probeStdioEntry: string = fileURLToPath(new URL("./probe-stdio.js", import.meta.url));
