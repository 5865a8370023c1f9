// A tools/call whose answer had begun (its SSE stream carried an event id) when the stream broke,
// and whose resume (GET + Last-Event-ID) then failed: the server read the call and may have run it,
// so no layer sends it again. Official-SDK Streamable HTTP server with its event store, on loopback;
// its one tool counts its runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sideEffectServer, startSdkServer, type SdkServerOptions } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { MCPManager, type MCPTool } from "../src/index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A manager connected to a resumable SDK server whose `charge` tool counts its runs. */
async function setup(options: Omit<SdkServerOptions, "build" | "resumable"> = {}) {
  const effect = sideEffectServer();
  const server = await startSdkServer({ ...options, build: effect.build, resumable: true });
  const dir = mkdtempSync(join(tmpdir(), "mcp-resume-"));
  const logs: string[] = [];
  const m = new MCPManager({
    cacheDir: dir,
    cache: false,
    onLog: (_server, message) => logs.push(String(message.data)),
  });
  cleanups.push(async () => {
    effect.release();
    await m.disconnectAll();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const { tools } = await m.connectServers({ sdk: { type: "http", url: server.url, timeout: 15_000 } });
  const charge = tools.find((t) => t.toolName === "charge")!;
  return { effect, server, logs, m, charge };
}

/**
 * Calls `charge`; once its answer has begun (the log message arrived: the stream has an event id),
 * `breakIt` breaks the stream. Returns what the call settled with.
 */
async function chargeAndBreak(
  charge: MCPTool,
  logs: string[],
  effect: { release(): void },
  breakIt: () => Promise<void>,
): Promise<unknown> {
  const call = charge.call({}).then(
    (result) => ({ ok: result }),
    (error: unknown) => ({ error }),
  );
  await expect.poll(() => logs).toContain("charging 1");
  await breakIt();
  effect.release(); // a call sent again would now answer at once, and the caller would see `ok`
  return call;
}

describe("a tools/call whose answer had begun is never sent again", () => {
  it("the resume gets 404 (the server restarted and forgot the session): the call fails, may have run, ran once", async () => {
    const { effect, server, logs, charge } = await setup();
    const outcome = await chargeAndBreak(charge, logs, effect, () => server.restart());
    expect(outcome).toMatchObject({
      error: { code: "network_error", mayHaveRun: true, cause: { code: "session_expired", status: 404 } },
    });
    expect((outcome as { error: Error }).error.message).toMatch(/may have run, so it was not sent again/);
    expect(effect.runs()).toBe(1);
  });

  it('the resume gets 400 "No valid session ID" (the SDK examples\' answer after a restart): the same', async () => {
    const { effect, server, logs, charge } = await setup({ unknownSession: 400 });
    const outcome = await chargeAndBreak(charge, logs, effect, () => server.restart());
    expect(outcome).toMatchObject({ error: { code: "network_error", mayHaveRun: true, cause: { status: 400 } } });
    expect(effect.runs()).toBe(1);
  });

  it("the resume is refused (the server crashed): the call may have run, though the resume never connected", async () => {
    const { effect, server, logs, charge } = await setup();
    const outcome = await chargeAndBreak(charge, logs, effect, () => server.kill());
    expect(outcome).toMatchObject({
      error: {
        code: "network_error",
        mayHaveRun: true,
        errno: "ECONNREFUSED",
        cause: { code: "network_error", mayHaveRun: false },
      },
    });
    expect((outcome as { error: Error }).error.message).not.toMatch(/Cannot reach/);
    expect(effect.runs()).toBe(1);
  });

  it("the resume's connection is reset: the call may have run", async () => {
    // Every GET that resumes a stream is cut as it arrives.
    const { effect, server, logs, charge } = await setup({
      intercept: (req) => {
        if (req.method !== "GET" || req.headers["last-event-id"] === undefined) return false;
        req.socket.destroy();
        return true;
      },
    });
    const outcome = await chargeAndBreak(charge, logs, effect, () => server.restart());
    expect(outcome).toMatchObject({
      error: { code: "network_error", mayHaveRun: true, cause: { code: "network_error", mayHaveRun: false } },
    });
    expect(effect.runs()).toBe(1);
  });
});
