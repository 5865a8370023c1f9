// `mcp codegen <server>`: the server's tools given to @mcp/codegen's generateClient, the module written out.
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clientNameOf, CodegenError, generateClient } from "@mcp/codegen";
import { mustStart } from "./commands.js";
import { failureOf } from "./resolve.js";
import { settle, withSession, type GlobalOptions } from "./session.js";
import { CliError, EXIT, note } from "./ui.js";

/** `mcp codegen <server> [--out <file.ts | folder>] [--name <ClientName>]`. */
export async function codegenCommand(
  globals: GlobalOptions,
  server: string,
  options: { out?: string; name?: string },
): Promise<number> {
  let clientName: string;
  try {
    clientName = clientNameOf({ server, name: options.name });
  } catch (error) {
    if (error instanceof CodegenError) throw new CliError(`--${error.message}`, EXIT.usage);
    throw error;
  }
  return withSession({ ...globals, server: [server] }, {}, async (session) => {
    mustStart(session, server);
    await settle(session);
    const status = session.manager.getConnectionStatus(server);
    if (status?.state === "failed") throw new CliError(failureOf(session, status));
    const connection = session.manager.getConnection(server);
    const tools = session.manager
      .getTools()
      .filter((tool) => tool.serverName === server)
      // The manager keeps each tool as its server listed it.
      .flatMap((tool) => (tool.definition ? [tool.definition] : []));
    const text = generateClient(tools, {
      server,
      serverInfo: connection?.serverInfo,
      name: options.name,
      generator: `\`mcp codegen ${server}\``,
    });
    if (options.out === undefined) {
      process.stdout.write(text);
      return EXIT.ok;
    }
    // A folder (one that exists, or a path ending in a slash) gets <folder>/<server>.ts.
    const folder =
      /[/\\]$/.test(options.out) || statSync(options.out, { throwIfNoEntry: false })?.isDirectory() === true;
    const file = folder ? join(options.out, `${server.replace(/[^A-Za-z0-9._-]/g, "-")}.ts`) : options.out;
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new CliError(
        `--out ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    note(
      `${file}: ${tools.length} tool${tools.length === 1 ? "" : "s"} of "${server}" as functions (create${clientName})`,
    );
    return EXIT.ok;
  });
}
