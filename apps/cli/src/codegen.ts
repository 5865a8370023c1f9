// `mcp codegen <server>`: the server's tools given to @mcp/codegen's generateClient, the module written out.
import { writeFileSync } from "node:fs";
import { clientModulePath, clientNameOf, CodegenError, generateClient } from "@mcp/codegen";
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
    const file = clientModulePath(options.out, server);
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
