// `mcp auth`'s extra flags (`--device`) and `mcp auth doctor`: their flags and help, registered on `mcp auth`.
import type { Command } from "commander";
import type { GlobalOptions } from "./session.js";

/** Adds `--device` to the `auth` command, and `doctor <server>` under it. */
export function addAuthOptions(auth: Command, run: (task: () => Promise<number>) => void): void {
  auth.option(
    "--device",
    "sign in with the device flow (RFC 8628): print a URL and a code to enter on any device with a browser, then wait; needs an authorization server that offers it",
  );
  auth
    .command("doctor <server>")
    .description(
      "why sign-in to an HTTP server (a configured name or a URL) fails: each step with its spec clause and what to do; exit 1 when one fails",
    )
    .option("--trace <file>", "write every request and answer, secrets redacted, to a file to attach to an issue")
    .option(
      "--sign-in",
      "complete a sign-in in the browser (redirect to 127.0.0.1) so that iss, the token, its refresh and the server's acceptance are checked too; nothing is saved",
    )
    .option("--no-open", "with --sign-in: only print the URL to open")
    .option(
      "--no-register",
      "do not try dynamic client registration (it registers a client at the authorization server, as a sign-in would)",
    )
    .action(
      (
        target: string,
        options: { trace?: string; signIn?: boolean; open?: boolean; register?: boolean },
        command: Command,
      ) =>
        run(async () =>
          (await import("./auth-doctor.js")).authDoctorCommand(
            command.optsWithGlobals<GlobalOptions>(),
            target,
            options,
          ),
        ),
    );
}
