import type { MCPServerConfig } from "@mcp/client";
import { OAuthError, pasteBackAuthorize, type DeviceOptions } from "@mcp/oauth";
import { openSession, type GlobalOptions, type Session } from "./session.js";
import { CliError, EXIT, note, out } from "./ui.js";

// `mcp auth` and `mcp logout`: OAuth sign-in and sign-out for one HTTP server.

/** The config of one HTTP server, for `auth` / `logout`. */
export function httpConfigOf(session: Session, name: string): MCPServerConfig {
  const config = session.configs[name];
  if (!config) throw new CliError(`no server named "${name}" (see: mcp servers)`, EXIT.usage);
  if (!("url" in config))
    throw new CliError(
      `"${name}" is a stdio server; OAuth applies to HTTP servers (a stdio server gets its credentials from its env)`,
      EXIT.usage,
    );
  return config;
}

/** The device flow's user step: where to go and the code to enter, on stderr. */
function deviceStep(name: string): DeviceOptions {
  return {
    onCode: (prompt) => {
      note(
        `To authorize "${name}", open ${prompt.verificationUri} on any device and enter the code: ${prompt.userCode}`,
      );
      if (prompt.verificationUriComplete) note(`(or open ${prompt.verificationUriComplete}, which has the code in it)`);
      note(`Waiting for you to approve it (the code expires in ${Math.round(prompt.expiresIn / 60)} min)…`);
    },
  };
}

/**
 * `mcp auth <server>`: the browser and the loopback listener, or (`--no-browser`) a printed URL and
 * the redirect address pasted back, or (`--device`) the device flow: a URL and a code, then polling.
 */
export async function authCommand(
  globals: GlobalOptions,
  name: string,
  options: { open?: boolean; browser?: boolean; device?: boolean },
): Promise<number> {
  const session = await openSession({ ...globals, server: [name] }, { connect: false, allowEmbedded: false });
  try {
    const config = httpConfigOf(session, name);
    const pasted =
      options.browser === false && !options.device ? pasteBackAuthorize({ name, onInstructions: note }) : undefined;
    await session.manager
      .authorizeServer(name, config, {
        open: options.open,
        onUrl: (url) => note(`To authorize "${name}", open: ${url}`),
        authorize: pasted,
        device: options.device ? deviceStep(name) : undefined,
      })
      .catch((error: unknown) => {
        if (options.device && error instanceof OAuthError && error.message.includes("device_authorization_endpoint")) {
          throw new CliError(
            `${error.message}. Sign in to "${name}" without --device (mcp auth ${name}; add --no-browser on a machine with no browser)`,
            EXIT.failure,
          );
        }
        throw error;
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
