// `mcp inspect`: the web inspector of @mcp/inspector on the CLI's servers. The command finds the
// servers, prints the URL, opens the browser and runs until Ctrl-C; the inspector is the package's.
import { InspectorError, inspectorHooks, startInspector, userConfigEditing, type Inspector } from "@mcp/inspector";
import { openInBrowser } from "@mcp/oauth";
import { approveCommand } from "./pins-view.js";
import { serverRows } from "./rows.js";
import { CLI_VERSION, openSession, type GlobalOptions } from "./session.js";
import { stopSignal } from "./stop-signal.js";
import { CliError, color, EXIT, note, out } from "./ui.js";

/** `mcp inspect`: starts the inspector on the CLI's servers and runs until Ctrl-C (or SIGTERM). */
export async function inspectCommand(
  globals: GlobalOptions,
  options: { port?: number | undefined; open?: boolean | undefined },
): Promise<number> {
  const hooks = inspectorHooks();
  const session = await openSession(globals, {
    connect: false,
    handlers: { onElicitation: hooks.onElicitation, onSampling: hooks.onSampling },
    // The inspector renders MCP Apps: servers may offer their UI tools only to a host that says so.
    // Roots: the page declares them (none until it does), and every server's roots/list gets them.
    manager: { connect: hooks.connect, onRoots: hooks.onRoots },
    onNotification: hooks.onNotification,
  });
  let inspector: Inspector | undefined;
  const stop = new AbortController();
  const stopped = stopSignal(stop.signal);
  try {
    inspector = await startInspector(session.manager, {
      hooks,
      port: options.port,
      heading: "mcp inspect",
      title: `mcp inspect (${session.embedded ? "embedded default" : `${Object.keys(session.configs).length} servers`})`,
      host: { name: "mcp-inspect", version: CLI_VERSION },
      // The rows of `mcp servers --json -v`: config errors and servers left out included.
      servers: () => serverRows(session),
      configOf: (name) => session.configs[name],
      approveCommand,
      // The page edits the user's own file (`mcp config add --scope user` writes it), loaded as this session
      // loaded it; not when the servers came from the command line or `--config` files, which it does not feed.
      config:
        globals.stdio || globals.http || globals.sse || globals.config?.length ? undefined : userConfigEditing(session),
    }).catch((error: unknown) => {
      const cause =
        error instanceof InspectorError && error.code === "listen_failed" ? (error.cause as Error) : (error as Error);
      throw new CliError(`mcp inspect could not listen on 127.0.0.1:${options.port ?? 0}: ${cause.message}`);
    });
    // Servers connect in the background: the page shows them arrive.
    session.manager
      .connectServers(session.configs, session.servers)
      .catch((error: unknown) => note(`connecting: ${(error as Error).message}`));
    if (globals.json) out(JSON.stringify({ url: inspector.url, port: inspector.port }));
    else {
      out(`mcp inspect is running at ${color.bold(inspector.url)}`);
      note("Only this URL (with its token) opens it, and only from this machine. Ctrl-C stops it.");
    }
    if (options.open !== false) openInBrowser(inspector.url);
    await stopped;
    return EXIT.ok;
  } finally {
    stop.abort();
    await inspector?.close();
    await session.close();
  }
}
