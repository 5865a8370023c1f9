import { findSkill } from "@mcp/client/skills";
import { skillRows } from "@mcp/manager";
import { overServers } from "./commands.js";
import { startOne } from "./resolve.js";
import { withSession, type GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { color, EXIT, out, printJson } from "./ui.js";

// Skills served over MCP (SEP-2640): `skills` lists them (the listing only, no file is fetched);
// `skill` loads one, verified, and prints it with where it came from.

/** `skills [server]`: every connected server's skills. */
export async function skillsCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  return overServers(globals, server, async (session, names) => {
    show(globals.json, await skillRows(session.manager, names), {
      empty: () => out(color.dim("no skills (no server lists any)")),
      table: [
        { title: "SERVER", cut: "never", cell: (r) => r.server },
        { title: "SKILL", cut: "never", cell: (r) => r.name },
        { title: "DESCRIPTION", yields: 1, cell: (r) => r.description.replace(/\s+/g, " ").trim() },
        { title: "URI", cut: "left", yields: 2, cell: (r) => r.uri },
      ],
    });
  });
}

/**
 * `skill <server> <skill> [--file <path>]`: loads the skill (a name from the server's listing, or
 * the URI of its SKILL.md), verified against its entry, and prints its SKILL.md, or one of its
 * files. Only that server starts.
 */
export async function skillCommand(
  globals: GlobalOptions,
  server: string,
  skill: string,
  options: { file?: string },
): Promise<number> {
  return withSession({ ...globals, server: [server] }, { connect: false }, async (session) => {
    await session.manager.addServers(session.configs, session.servers);
    await startOne(session, server);
    // A name from the server's listing (@mcp/client's findSkill), or the URI of its SKILL.md.
    const target = skill.includes("://") ? skill : findSkill(server, await session.manager.listSkills(server), skill);
    const loaded = await session.manager.loadSkill(
      server,
      target,
      globals.timeout === undefined ? {} : { timeout: globals.timeout },
    );
    const file = options.file === undefined ? undefined : await loaded.readFile(options.file);
    if (globals.json)
      printJson({
        server,
        uri: loaded.entry.uri,
        frontmatter: loaded.frontmatter,
        ...(file ? { file: { uri: file.uri, text: file.text } } : { markdown: loaded.markdown }),
      });
    else {
      // Where it came from, always: a skill's instructions are the server's text, not ours.
      out(color.dim(`# from server "${server}": ${file ? file.uri : loaded.entry.uri} (verified against its entry)`));
      out(file ? file.text : loaded.markdown);
    }
    return EXIT.ok;
  });
}
