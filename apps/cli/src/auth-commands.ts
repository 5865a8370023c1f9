import type { MCPServerConfig } from "@mcp/client";
import { pasteBackAuthorize } from "./paste-back.js";
import { openSession, type GlobalOptions, type Session } from "./session.js";
import { CliError, EXIT, note, out } from "./ui.js";

// `mcp auth` and `mcp logout`: OAuth sign-in and sign-out for one HTTP server.

/** The config of one HTTP server, for `auth` / `logout`. */
export function httpConfigOf(session: Session, name: string): MCPServerConfig {
  const config = session.configs[name];
  if (!config) throw new CliError(`no server named "${name}" (see: mcp servers)`, EXIT.usage);
  if (!("url" in config)) throw new CliError(`"${name}" is a stdio server; OAuth applies to HTTP servers (a stdio server gets its credentials from its env)`, EXIT.usage);
  return config;
}

/** `mcp auth <server>`: the browser and the loopback listener, or (`--no-browser`) a printed URL and the redirect address pasted back. */
export async function authCommand(globals: GlobalOptions, name: string, options: { open?: boolean; browser?: boolean }): Promise<number> {
  const session = await openSession({ ...globals, server: [name] }, { connect: false, allowEmbedded: false });
  try {
    const config = httpConfigOf(session, name);
    const pasted = options.browser === false ? pasteBackAuthorize(name) : undefined;
    await session.manager.authorizeServer(name, config, {
      open: options.open,
      onUrl: (url) => note(`To authorize "${name}", open: ${url}`),
      authorize: pasted,
    });
    out(`Authorized "${name}"; its tokens are saved for the next runs.`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function logoutCommand(globals: GlobalOptions, name: string): Promise<number> {
  const session = await openSession({ ...globals, server: [name] }, { connect: false, allowEmbedded: false });
  try {
    await session.manager.logoutServer(name, httpConfigOf(session, name));
    out(`Forgot the tokens of "${name}".`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
