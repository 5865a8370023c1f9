import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callTool,
  complete,
  connectToServer,
  disconnectServer,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
  ping,
  readResource,
  setLoggingLevel,
  subscribe,
  unsubscribe,
  type LogMessage,
  type MCPServerConfig,
  type MCPServerConnection,
} from "../src/index.js";
import { everythingEntry as entry, startEverything, textOf } from "mcp-test-utils";

for (const mode of ["stdio", "streamableHttp", "sse"] as const) {
  describe(`a walk over server-everything (${mode})`, () => {
    let stop: () => Promise<void> = async () => undefined;
    let config: MCPServerConfig;
    let conn: MCPServerConnection;
    const logs: LogMessage[] = [];
    const listChanged: unknown[] = [];
    const asked: string[] = [];

    beforeAll(async () => {
      if (mode === "stdio") config = { command: process.execPath, args: [entry, "stdio"], timeout: 20_000 };
      else {
        const server = await startEverything(mode);
        stop = server.stop;
        config = { type: mode === "sse" ? "sse" : "http", url: server.url, timeout: 20_000 };
      }
      conn = await connectToServer(`everything-${mode}`, config, {
        clientInfo: { name: "walk-test", version: "1.0.0" },
        roots: [{ uri: "file:///tmp/walk", name: "walk" }],
        onSampling: async (params, _ctx) => {
          asked.push("sampling/createMessage");
          return {
            role: "assistant",
            content: { type: "text", text: `sampled: ${JSON.stringify(params.messages[0]?.content)}` },
            model: "test-model",
            stopReason: "endTurn",
          };
        },
        onElicitation: async () => {
          asked.push("elicitation/create");
          return { action: "accept", content: { name: "Ada" } };
        },
        onLog: (m) => logs.push(m),
        // The server announces its new tools right after `initialized`, possibly before
        // connectToServer resolves: a listener added with conn.on() afterwards could miss it.
        onNotification: (method, params) => {
          if (method === "notifications/tools/list_changed") listChanged.push(params);
        },
      });
    });
    afterAll(async () => {
      await disconnectServer(conn);
      await stop();
    });

    it("knows the server", () => {
      expect(conn.serverInfo.name).toMatch(/everything/);
      expect(conn.protocolVersion).toBe("2025-11-25");
      expect(conn.capabilities.tools).toBeDefined();
      expect(conn.instructions).toBeTypeOf("string");
    });

    it("lists every tool, including the capability-gated ones, and sees tools/list_changed", async () => {
      await expect
        .poll(async () => (await listTools(conn)).map((t) => t.name), { timeout: 10_000 })
        .toEqual(
          expect.arrayContaining([
            "echo",
            "get-sum",
            "get-structured-content",
            "get-tiny-image",
            "trigger-sampling-request",
            "trigger-elicitation-request",
            "get-roots-list",
          ]),
        );
      await expect.poll(() => listChanged.length, { timeout: 10_000 }).toBeGreaterThan(0);
    });

    it("calls the non-network tools", async () => {
      expect(textOf(await callTool(conn, "echo", { message: "walk" }))).toBe("Echo: walk");
      expect(textOf(await callTool(conn, "get-sum", { a: 19, b: 23 }))).toContain("42");
      const structured = await callTool(conn, "get-structured-content", { location: "Chicago" });
      expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
      const tools = await listTools(conn);
      expect(tools.find((t) => t.name === "get-structured-content")?.outputSchema).toMatchObject({ type: "object" });
      const annotated = await callTool(conn, "get-annotated-message", { messageType: "success", includeImage: true });
      expect(annotated.content.some((c) => c["annotations"] !== undefined)).toBe(true);
      const links = await callTool(conn, "get-resource-links", { count: 3 });
      expect(links.content.filter((c) => c.type === "resource_link")).toHaveLength(3);
      const image = await callTool(conn, "get-tiny-image", {});
      const png = image.content.find((c) => c.type === "image");
      expect(
        png?.type === "image" ? [png.mimeType, Buffer.from(png.data, "base64").subarray(1, 4).toString()] : undefined,
      ).toEqual(["image/png", "PNG"]);
    });

    it("delivers every progress notification of a long-running tool", async () => {
      const progress: number[] = [];
      await callTool(
        conn,
        "trigger-long-running-operation",
        { duration: 1, steps: 3 },
        { onProgress: (p) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
    });

    it("lists and reads resources and templates", async () => {
      const resources = await listResources(conn);
      expect(resources.length).toBeGreaterThanOrEqual(7);
      const doc = resources.find((r) => r.uri.startsWith("demo://resource/static/document/"))!;
      const read = await readResource(conn, doc.uri);
      expect(read.contents[0]).toMatchObject({ uri: doc.uri });
      const templates = await listResourceTemplates(conn);
      expect(templates.map((t) => t.uriTemplate)).toEqual(
        expect.arrayContaining(["demo://resource/dynamic/text/{resourceId}"]),
      );
      const dynamic = await readResource(conn, "demo://resource/dynamic/text/7");
      expect(dynamic.contents[0]).toMatchObject({ uri: "demo://resource/dynamic/text/7", text: expect.any(String) });
    });

    it("lists and gets prompts, and completes an argument", async () => {
      const prompts = await listPrompts(conn);
      expect(prompts.map((p) => p.name)).toEqual(
        expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt"]),
      );
      const simple = await getPrompt(conn, "simple-prompt");
      expect(simple.messages.length).toBeGreaterThan(0);
      const withArgs = await getPrompt(conn, "args-prompt", { city: "Lisbon" });
      expect(JSON.stringify(withArgs.messages)).toContain("Lisbon");
      const completion = await complete(conn, {
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "department", value: "S" },
      });
      expect(completion.completion.values).toEqual(expect.arrayContaining(["Sales", "Support"]));
      const dependent = await complete(conn, {
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "name", value: "" },
        context: { arguments: { department: "Engineering" } },
      });
      expect(dependent.completion.values).toEqual(["Alice", "Bob", "Charlie"]);
    });

    it("answers sampling, elicitation and roots requests through the registered handlers", async () => {
      const sampled = await callTool(conn, "trigger-sampling-request", { prompt: "hi", maxTokens: 20 });
      expect(textOf(sampled)).toContain("sampled:");
      const elicited = await callTool(conn, "trigger-elicitation-request", {});
      expect(textOf(elicited)).toContain("Ada");
      const roots = await callTool(conn, "get-roots-list", {});
      expect(textOf(roots)).toContain("file:///tmp/walk");
      expect(asked).toEqual(expect.arrayContaining(["sampling/createMessage", "elicitation/create"]));
      await ping(conn);
    });

    it("subscribes to a resource and receives resources/updated", async () => {
      const uri = "demo://resource/static/document/architecture.md";
      const updates: unknown[] = [];
      const off = conn.on("notifications/resources/updated", (p) => updates.push(p));
      await subscribe(conn, uri);
      await callTool(conn, "toggle-subscriber-updates", {});
      await expect.poll(() => updates, { timeout: 10_000 }).toContainEqual(expect.objectContaining({ uri }));
      await callTool(conn, "toggle-subscriber-updates", {});
      await unsubscribe(conn, uri);
      off();
    });

    it("sets the logging level and receives log notifications", async () => {
      await setLoggingLevel(conn, "debug");
      await callTool(conn, "toggle-simulated-logging", {});
      await expect.poll(() => logs.length, { timeout: 25_000, interval: 200 }).toBeGreaterThan(0);
      await callTool(conn, "toggle-simulated-logging", {});
      expect(logs[0]).toMatchObject({ level: expect.any(String) });
    }, 30_000);
  });
}
