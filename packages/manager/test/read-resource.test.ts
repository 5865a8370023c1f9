// readResourceFrom against real stdio servers: server-everything and an official-SDK server that
// answers a read of any URI (so the order servers are asked in shows in the answer).
import { fileURLToPath } from "node:url";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPManager, MemoryPinStore, readResourceFrom } from "../src/index.js";

const notes = fileURLToPath(new URL("./fixtures/notes.mjs", import.meta.url));
const plain = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const STATIC = "demo://resource/static/document/architecture.md";
let manager: MCPManager;

beforeAll(async () => {
  manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: false });
  const { errors } = await manager.connectServers({
    everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
    notes: { command: process.execPath, args: [notes], timeout: 20_000 },
    plain: { command: process.execPath, args: [plain], timeout: 20_000 },
  });
  expect([...errors.values()]).toEqual([]);
});
afterAll(() => manager?.disconnectAll());

const text = (read: Awaited<ReturnType<typeof readResourceFrom>>): string | undefined => {
  const contents = read?.result.contents[0];
  return contents && "text" in contents ? contents.text : undefined;
};

describe("readResourceFrom", () => {
  it("asks the servers whose list has the URI first, whatever the order given", async () => {
    const read = await readResourceFrom(manager, STATIC, ["notes", "everything"]);
    expect(read?.server).toBe("everything");
    expect(text(read)).toContain("architecture");
    const own = await readResourceFrom(manager, "note://one", ["everything", "notes"]);
    expect(own?.server).toBe("notes");
    expect(text(own)).toBe("notes read note://one");
  });

  it("a URI in no list (a template's): the servers that offer resources, in the order given", async () => {
    const unlisted = "demo://resource/dynamic/text/1";
    expect((await readResourceFrom(manager, unlisted, ["plain", "notes", "everything"]))?.server).toBe("notes");
    const read = await readResourceFrom(manager, unlisted, ["plain", "everything", "notes"]);
    expect(read?.server).toBe("everything");
    expect(text(read)).not.toContain("notes read");
  });

  it("undefined when no server given offers resources (or none is connected); the last error when every one failed", async () => {
    expect(await readResourceFrom(manager, STATIC, ["plain", "nosuch"])).toBeUndefined();
    expect(await readResourceFrom(manager, STATIC, [])).toBeUndefined();
    await expect(readResourceFrom(manager, "demo://no/such/thing", ["plain", "everything"])).rejects.toThrow(
      /demo:\/\/no\/such\/thing|not found/i,
    );
  });
});
