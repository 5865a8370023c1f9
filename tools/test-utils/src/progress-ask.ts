// An upstream on the official SDK v2 whose tool sends progress and then, at once, asks its caller:
// `progress_then_ask {tag, count}` sends `count` progress notifications (for the call's progress
// token) without waiting for any of them, then a sampling question carrying `tag`, and answers with
// what was sampled. On the 2025 era the question is a server→client request sent right after the
// progress (the same turn, so the gateway reads them together); on 2026-07-28 it is an
// `input_required` round after the progress, answered on the retry. A gateway must pass it all on
// in that order: the progress first.
import { fileURLToPath } from "node:url";
import { inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** The sampling question of a call tagged `tag`. */
const question = (tag: string) => ({
  messages: [{ role: "user" as const, content: { type: "text" as const, text: `sample ${tag}` } }],
  maxTokens: 10,
});

type Sampled = { content?: { type?: string; text?: string } | unknown[] };
const textOf = (sampled: Sampled): string =>
  !Array.isArray(sampled.content) && sampled.content?.type === "text" ? String(sampled.content.text) : "";

/** Builds the server (SDK v2: both eras). */
export function buildProgressAsk(): McpServer {
  const server = new McpServer({ name: "progress-ask", version: "1.0.0" });
  server.registerTool(
    "progress_then_ask",
    {
      description: "Sends `count` progress notifications, then at once asks its caller to sample",
      inputSchema: z.object({ tag: z.string(), count: z.number().int().min(0) }),
    },
    async ({ tag, count }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const sampled = inputResponse(ctx.mcpReq.inputResponses, "sample");
      if (sampled.kind === "sampling")
        return { content: [{ type: "text", text: `${tag}: ${textOf(sampled.result)}` }] };
      for (let step = 1; step <= count; step++)
        if (token !== undefined)
          void ctx.mcpReq
            .notify({
              method: "notifications/progress",
              params: { progressToken: token, progress: step, total: count },
            })
            .catch(() => undefined);
      // 2026-07-28 requests carry an envelope: their question is an input_required round.
      if (ctx.mcpReq.envelope !== undefined)
        return inputRequired({ inputRequests: { sample: inputRequired.createMessage(question(tag)) } });
      const answer = (await ctx.mcpReq.send({
        method: "sampling/createMessage",
        params: question(tag),
      } as never)) as Sampled;
      return { content: [{ type: "text", text: `${tag}: ${textOf(answer)}` }] };
    },
  );
  return server;
}

/** Its stdio entry: `node <entry>` (both eras; a client saying `protocol: "2025"` gets server→client requests). */
export const progressAskStdioEntry: string = fileURLToPath(new URL("./progress-ask-stdio.js", import.meta.url));
