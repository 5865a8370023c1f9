// toOpenAITools against server-everything, typed with openai's own types (checked by `tsc` in the
// typecheck task; no request goes to OpenAI).
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { toOpenAITools } from "../src/openai.js";
import { useEverything } from "./helpers.js";

const setup = useEverything();

describe("toOpenAITools", () => {
  it("Responses API: function tools; a function_call is answered with its function_call_output", async () => {
    const adapter = toOpenAITools(setup.tools);
    const echo = setup.tool("echo");
    const request: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: "gpt-5",
      input: "echo hi",
      tools: adapter.tools,
    };
    expect(request.tools!.find((t) => t.type === "function" && t.name === echo.name)).toMatchObject({
      type: "function",
      strict: false,
      parameters: { type: "object" },
    });
    const call: OpenAI.Responses.ResponseFunctionToolCall = {
      type: "function_call",
      call_id: "call_1",
      name: echo.name,
      arguments: JSON.stringify({ message: "hi" }),
    };
    const output: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = await adapter.run(call);
    expect(output).toEqual({ type: "function_call_output", call_id: "call_1", output: "Echo: hi" });
    // Arguments that are not JSON, or that the schema refuses, say so; an image goes as input_image.
    expect((await adapter.run({ ...call, arguments: "{not json" })).output).toMatch(
      /^Error: The arguments for mcp__everything__echo are not JSON/,
    );
    expect((await adapter.run({ ...call, arguments: "{}" })).output).toMatch(
      /^Error: Invalid arguments for mcp__everything__echo: /,
    );
    const image = await adapter.run({
      type: "function_call",
      call_id: "call_2",
      name: setup.tool("get-tiny-image").name,
      arguments: "{}",
    });
    expect(image.output).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "input_image", image_url: expect.stringMatching(/^data:image\/png;base64,/) }),
      ]),
    );
  });

  it("Chat Completions: function tools; a tool call is answered with a tool message", async () => {
    const adapter = toOpenAITools(setup.tools, { api: "chat" });
    const sum = setup.tool("get-sum");
    const request: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-5",
      messages: [{ role: "user", content: "1 + 2?" }],
      tools: adapter.tools,
    };
    expect(request.tools!.length).toBe(setup.tools.length);
    const call: OpenAI.Chat.ChatCompletionMessageFunctionToolCall = {
      id: "call_3",
      type: "function",
      function: { name: sum.name, arguments: '{"a":1,"b":2}' },
    };
    const message: OpenAI.Chat.ChatCompletionToolMessageParam = await adapter.run(call);
    expect(message).toEqual({ role: "tool", tool_call_id: "call_3", content: "The sum of 1 and 2 is 3." });
  });

  it("strict mode: the provider gets the strict subset; the model's nulls for optional fields are left out before the call", async () => {
    const adapter = toOpenAITools(setup.tools, { strict: true });
    const long = setup.tool("trigger-long-running-operation");
    const definition = adapter.tools.find((t) => t.name === long.name)!;
    expect(definition.strict).toBe(true);
    expect(definition.parameters).toMatchObject({ additionalProperties: false, required: ["duration", "steps"] });
    expect(
      (definition.parameters as { properties: Record<string, { type: unknown }> }).properties["duration"]!.type,
    ).toEqual(["number", "null"]);
    const output = await adapter.run({
      type: "function_call",
      call_id: "call_4",
      name: long.name,
      arguments: JSON.stringify({ duration: 0.2, steps: null }),
    });
    expect(output.output).toMatch(/^Long running operation completed/);
  });
});
