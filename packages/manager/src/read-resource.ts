// A resource by its URI, from whichever of the given servers can read it: those whose list has the
// URI are asked first, then the others that offer resources (a template's URI is in no list).
import { readResource, type ReadResourceResult } from "@mcp/client";
import type { MCPManager } from "./manager.js";

/** What {@link readResourceFrom} read, and the server that read it. */
export interface ReadFrom {
  server: string;
  result: ReadResourceResult;
}

/**
 * Reads `uri` from the first of `servers` (connected ones; others are passed over) that can: the
 * servers whose `resources/list` has it first, then the rest that offer resources, each in the
 * order given. Resolves with what it read and from where; with `undefined` when no server offers
 * resources; rejects with the last server's error when every one that was asked failed.
 *
 * @example
 * const read = await readResourceFrom(manager, "demo://resource/static/document/architecture.md", ["everything"]);
 * if (read) console.log(read.server, read.result.contents[0]);
 */
export async function readResourceFrom(
  manager: Pick<MCPManager, "getConnection" | "listResources">,
  uri: string,
  servers: readonly string[],
  options: { timeout?: number | undefined } = {},
): Promise<ReadFrom | undefined> {
  const owners: string[] = [];
  for (const name of servers) {
    const resources = await manager.listResources(name).catch(() => []);
    if (resources.some((r) => r.uri === uri)) owners.push(name);
  }
  let failed: { error: unknown } | undefined;
  for (const name of [...owners, ...servers.filter((n) => !owners.includes(n))]) {
    const connection = manager.getConnection(name);
    if (!connection?.capabilities.resources) continue;
    try {
      return {
        server: name,
        result: await readResource(connection, uri, options.timeout === undefined ? {} : { timeout: options.timeout }),
      };
    } catch (error) {
      failed = { error };
    }
  }
  if (failed) throw failed.error;
  return undefined;
}
