// toAnthropicTools against server-everything, typed with @anthropic-ai/sdk's own types (checked
// by `tsc` in the typecheck task; no request goes to Anthropic).
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { toAnthropicTools } from "../src/anthropic.js";
import { useEverything } from "./helpers.js";

const setup = useEverything();

describe("toAnthropicTools (Messages API)", () => {
  it("tools are Messages API tools; run answers a tool_use block with the tool_result the next request carries", async () => {
    const adapter = toAnthropicTools(setup.tools);
    const sum = setup.tool("get-sum");
    // The SDK's own request type takes the definitions as they are.
    const request: Anthropic.MessageCreateParams = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "1 + 2?" }],
      tools: adapter.tools,
    };
    expect(request.tools!.find((t) => "input_schema" in t && t.name === sum.name)).toMatchObject({
      name: sum.name,
      description: sum.description,
      input_schema: { type: "object" },
    });
    const toolUse: Anthropic.ToolUseBlock = {
      type: "tool_use",
      id: "toolu_01",
      name: sum.name,
      input: { a: 1, b: 2 },
      caller: { type: "direct" },
    };
    const result = await adapter.run(toolUse);
    const next: Anthropic.MessageParam = { role: "user", content: [result] };
    expect(next.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_01", content: [{ type: "text", text: "The sum of 1 and 2 is 3." }] },
    ]);
  });

  it("bad arguments, an unknown tool and an image: is_error results the model reads, and an image block", async () => {
    const adapter = toAnthropicTools(setup.tools);
    const bad = await adapter.run({
      type: "tool_use",
      id: "toolu_02",
      name: setup.tool("get-sum").name,
      input: { a: 1 },
    });
    expect(bad).toMatchObject({
      is_error: true,
      content: [
        {
          type: "text",
          text: expect.stringMatching(/^Invalid arguments for mcp__everything__get-sum: the arguments: .*"b"/),
        },
      ],
    });
    expect(await adapter.run({ type: "tool_use", id: "toolu_03", name: "mcp__nope__x", input: {} })).toMatchObject({
      is_error: true,
      content: [{ text: 'There is no tool named "mcp__nope__x".' }],
    });
    const image = await adapter.run({
      type: "tool_use",
      id: "toolu_04",
      name: setup.tool("get-tiny-image").name,
      input: {},
    });
    const block: Anthropic.ToolResultBlockParam = image;
    expect(block.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "image",
          source: expect.objectContaining({ type: "base64", media_type: "image/png" }),
        }),
      ]),
    );
  });

  it("defer_loading for Anthropic's tool search, for every tool or those chosen", () => {
    expect(toAnthropicTools(setup.tools, { deferLoading: true }).tools.every((t) => t.defer_loading === true)).toBe(
      true,
    );
    const some = toAnthropicTools(setup.tools, { deferLoading: (t) => t.name.endsWith("echo") }).tools;
    expect(some.filter((t) => t.defer_loading).map((t) => t.name)).toEqual([setup.tool("echo").name]);
  });
});
