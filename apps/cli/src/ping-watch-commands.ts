// `mcp ping` and `mcp watch`: each server's round-trip time, and its notifications and log messages streamed until
// Ctrl-C.
import { setLoggingLevel, type LoggingLevel } from "@mcp/client";
import { roundTrips } from "@mcp/manager";
import { connected, mustStart, only } from "./commands.js";
import { interruptible } from "./live.js";
import { failureOf } from "./resolve.js";
import { openSession, settle, withSession, type GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { color, EXIT, firstLine, note, out } from "./ui.js";

/** `mcp ping [server]`: the round-trip time to each server (exit 1 when any failed). */
export async function pingCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  return withSession(only(globals, server), {}, async (session) => {
    await settle(session);
    mustStart(session, server);
    // A server that failed to start says why as `mcp servers` does.
    const results = await roundTrips(session.manager, {
      timeout: globals.timeout,
      disabled: server !== undefined,
      errorOf: (status) => (status.state === "failed" ? failureOf(session, status) : undefined),
    });
    // Aligned like `servers`; a failure in words under the table, its stderr once.
    show(globals.json, results, {
      table: [
        { title: "SERVER", cut: "never", cell: (r) => r.server },
        {
          title: "TIME",
          cell: (r) => (r.error ? "failed" : `${r.ms} ms`),
          paint: (cell) => (cell === "failed" ? color.red(cell) : color.green(cell)),
        },
        {
          title: "",
          cell: (r) => (r.error ? "(see below)" : r.method === "ping" ? "" : `(${r.method})`),
          paint: color.dim,
        },
      ],
      after: (rows) => {
        const failed = rows.filter((r) => r.error);
        if (failed.length)
          out(
            `\n${failed.map((r) => (r.error!.startsWith(`server "${r.server}"`) ? r.error! : `${color.bold(r.server)}: ${r.error!}`)).join("\n")}`,
          );
      },
    });
    return results.some((r) => r.error) ? EXIT.failure : EXIT.ok;
  });
}

/** `mcp watch [server]`: notifications and log messages until Ctrl-C. */
export async function watchCommand(
  globals: GlobalOptions,
  server: string | undefined,
  options: { level?: string },
): Promise<number> {
  const stamp = (): string => new Date().toISOString().slice(11, 23);
  const print = (name: string, method: string, params: unknown): void => {
    if (globals.json) out(JSON.stringify({ time: new Date().toISOString(), server: name, method, params }));
    else out(`${color.dim(stamp())} ${color.bold(name)} ${color.cyan(method)} ${JSON.stringify(params ?? {})}`);
  };
  const session = await openSession(only(globals, server), {
    connect: false,
    onNotification: print,
  });
  session.manager.onStatusChange((s) =>
    note(`${stamp()} ${s.name} ${s.state}${s.lastError ? `: ${firstLine(s.lastError, 100)}` : ""}`),
  );
  const { signal, dispose } = interruptible();
  try {
    await session.manager.connectServers(session.configs, session.servers);
    for (const name of await connected(session, server)) {
      const connection = session.manager.getConnection(name)!;
      if (connection.capabilities.logging)
        await setLoggingLevel(connection, (options.level ?? "info") as LoggingLevel).catch(() => undefined);
    }
    note(`Watching ${Object.keys(session.configs).join(", ")}; Ctrl-C to stop.`);
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    return EXIT.ok;
  } finally {
    dispose();
    await session.close();
  }
}
