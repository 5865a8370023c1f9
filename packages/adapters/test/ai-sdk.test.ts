// toAiSdkTools with the real AI SDK: generateText, driven by the SDK's mock model, calls an MCP
// tool on server-everything and hands the result back to the model.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { toAiSdkTools } from "../src/ai-sdk.js";
import { usage, useEverything } from "./helpers.js";

const setup = useEverything();

/** A model that calls `tool` with `input` on its first step and answers "done" on its second. */
function model(tool: string, input: unknown): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      if (step === 1)
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: tool, input: JSON.stringify(input) }],
          finishReason: { unified: "tool-calls", raw: "tool_use" },
          usage,
          warnings: [],
        };
      return {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: "end_turn" },
        usage,
        warnings: [],
      };
    },
  });
}

/** What the model was given back for its tool call, on its second step. */
function toolResultSent(mock: MockLanguageModelV3): unknown {
  const prompt = mock.doGenerateCalls[1]!.prompt;
  const message = prompt.find((m) => m.role === "tool")!;
  return (message.content[0] as { output: unknown }).output;
}

describe("toAiSdkTools (AI SDK 6, generateText)", () => {
  it("the model's tool call reaches the MCP server and its result goes back to the model", async () => {
    const tools = toAiSdkTools(setup.tools);
    const echo = setup.tool("echo");
    const mock = model(echo.name, { message: "hello from the model" });
    const result = await generateText({ model: mock, tools, prompt: "say hello", stopWhen: stepCountIs(3) });
    expect(result.text).toBe("done");
    expect(result.steps[0]!.toolResults[0]).toMatchObject({
      toolName: echo.name,
      output: { content: [{ type: "text", text: "Echo: hello from the model" }] },
    });
    expect(toolResultSent(mock)).toEqual({ type: "text", value: "Echo: hello from the model" });
    // The provider got each tool's schema as the server wrote it.
    const sent = mock.doGenerateCalls[0]!.tools!.find((t) => t.name === echo.name) as {
      inputSchema: { properties: object };
    };
    expect(sent.inputSchema.properties).toEqual((echo.inputSchema as { properties: object }).properties);
  });

  it("arguments the server's schema refuses come back to the model as a tool error naming the field; nothing reaches the server", async () => {
    const sum = setup.tool("get-sum");
    const mock = model(sum.name, { a: "one", b: 2 });
    await generateText({ model: mock, tools: toAiSdkTools(setup.tools), prompt: "add", stopWhen: stepCountIs(3) });
    const output = toolResultSent(mock) as { type: string; value: string };
    expect(output.type).toBe("error-text");
    expect(output.value).toMatch(new RegExp(`^Invalid arguments for ${sum.name}: argument "a": `));
  });

  it("an image result is given to the model as media", async () => {
    const image = setup.tool("get-tiny-image");
    const mock = model(image.name, {});
    await generateText({ model: mock, tools: toAiSdkTools(setup.tools), prompt: "an image", stopWhen: stepCountIs(3) });
    const output = toolResultSent(mock) as { type: string; value: { type: string; mediaType?: string }[] };
    expect(output.type).toBe("content");
    // Given as `media` (AI SDK 5's name); AI SDK 6 passes it on to the provider as `image-data`.
    expect(
      output.value.some(
        (part) => (part.type === "image-data" || part.type === "media") && part.mediaType === "image/png",
      ),
    ).toBe(true);
  });

  it("a result over the budget is cut, and the model is told where the whole of it is", async () => {
    const echo = setup.tool("echo");
    const mock = model(echo.name, { message: "x".repeat(500) });
    await generateText({
      model: mock,
      tools: toAiSdkTools(setup.tools, { maxResultChars: 100 }),
      prompt: "long",
      stopWhen: stepCountIs(3),
    });
    const output = toolResultSent(mock) as { type: string; value: string };
    expect(output.value).toMatch(
      /^Echo: x{94}\n\[Result cut to 100 of 506 characters\. The whole result is in (\S+)\]$/,
    );
  });

  it("the SDK's abort signal cancels the MCP call: execute rejects with its reason at once", async () => {
    const long = setup.tool("trigger-long-running-operation");
    const tool = toAiSdkTools(setup.tools)[long.name]!;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user stopped")), 300);
    const started = Date.now();
    await expect(
      tool.execute({ duration: 10, steps: 10 }, { abortSignal: controller.signal, toolCallId: "call-9", messages: [] }),
    ).rejects.toThrow("user stopped");
    // Not when the 10 s operation ends: 7 s leaves a loaded machine room and is still 3 s short of it.
    expect(Date.now() - started).toBeLessThan(7000);
    // The server is free for the next call.
    await expect(setup.tool("echo").call({ message: "next" })).resolves.toMatchObject({
      content: [{ text: "Echo: next" }],
    });
  });
});
