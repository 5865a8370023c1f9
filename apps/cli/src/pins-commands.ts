// `mcp pins` and `mcp pins approve`: held tools with their diffs, and their approval.
import { mustStart, only } from "./commands.js";
import { heldJson, heldOf, heldText } from "./pins-view.js";
import { settle, withSession, type GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { CliError, EXIT, out } from "./ui.js";

/**
 * Pins are shared by every host on a config, whatever it advertises: these commands advertise
 * sampling and elicitation (as `mcp serve` and `mcp inspect` do, never answering) so they see the
 * tools a server lists only to such hosts, and can approve them.
 */
const refuse = (): Promise<never> => Promise.reject(new Error("mcp pins answers no sampling or elicitation request"));
const asHosts = { handlers: { onSampling: refuse, onElicitation: refuse } };

/**
 * `pins [server]`: the tools held because their definition changed since it was approved (or they
 * are new), each with its diff and the command that approves it. Exit 1 when any is held.
 */
export async function pinsCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  return withSession(only(globals, server), asHosts, async (session) => {
    mustStart(session, server);
    await settle(session);
    const held = heldOf(session, server);
    show(globals.json, held, {
      json: (rows) => rows.map(heldJson),
      empty: server
        ? `No held tools on "${server}": what it lists is what was approved.`
        : "No held tools: every server lists what was approved.",
      line: (tool) => heldText(tool, ""),
    });
    return held.length > 0 ? EXIT.failure : EXIT.ok;
  });
}

/**
 * `pins approve <server> [tools...]`: shows the diff of the server's held tools (those named, or
 * all) and approves them: their definitions become the pins, and they are offered from now on.
 */
export async function pinsApproveCommand(globals: GlobalOptions, server: string, tools: string[]): Promise<number> {
  return withSession({ ...globals, server: [server] }, asHosts, async (session) => {
    mustStart(session, server);
    await settle(session);
    const held = heldOf(session, server);
    const unknown = tools.filter((name) => !held.some((tool) => tool.tool === name));
    if (unknown.length > 0)
      throw new CliError(
        `not held on "${server}": ${unknown.join(", ")}${held.length ? ` (held: ${held.map((tool) => tool.tool).join(", ")})` : ""}`,
        EXIT.usage,
      );
    const approved = await session.manager.pins.approve(server, tools.length > 0 ? tools : undefined);
    show(globals.json, approved, {
      json: (rows) => ({ server, approved: rows.map(heldJson) }),
      empty: `Nothing to approve: "${server}" has no held tools.`,
      line: (tool) => heldText(tool, ""),
      after: (rows) => out(`Approved ${rows.length} tool${rows.length === 1 ? "" : "s"} of "${server}".`),
    });
    return EXIT.ok;
  });
}
