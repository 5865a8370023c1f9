// `mcp codegen <server>`: the server's tools given to @mcp/codegen's generateClient, the module written out.
import { clientNameOf, CodegenError, generateClient, writeClientModule } from "@mcp/codegen";
import { mustStart } from "./commands.js";
import { failureOf } from "./resolve.js";
import { settle, withSession, type GlobalOptions } from "./session.js";
import { CliError, EXIT, note, plural } from "./ui.js";

/** What `make` gives; @mcp/codegen's error for `--name` (a usage error) or `--out` as the CLI says it. */
function flagged<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof CodegenError)) throw error;
    throw new CliError(`--${error.message}`, error.option === "name" ? EXIT.usage : EXIT.failure);
  }
}

/** `mcp codegen <server> [--out <file.ts | folder>] [--name <ClientName>]`. */
export async function codegenCommand(
  globals: GlobalOptions,
  server: string,
  options: { out?: string; name?: string },
): Promise<number> {
  const clientName = flagged(() => clientNameOf({ server, name: options.name }));
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
    const file = flagged(() => writeClientModule(options.out!, server, text));
    note(`${file}: ${plural(tools.length, "tool")} of "${server}" as functions (create${clientName})`);
    return EXIT.ok;
  });
}
