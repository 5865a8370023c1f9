// `mcp auth doctor`: its flags and help, registered under `mcp auth`.
import type { Command } from "commander";
import type { GlobalOptions } from "./session.js";

/** Adds `doctor <server>` under the `auth` command. */
export function addAuthDoctor(auth: Command, run: (task: () => Promise<number>) => void): void {
  auth
    .command("doctor <server>")
    .description("why sign-in to an HTTP server (a configured name or a URL) fails: each step with its spec clause and what to do; exit 1 when one fails")
    .option("--trace <file>", "write every request and answer, secrets redacted, to a file to attach to an issue")
    .action((target: string, options: { trace?: string }, command: Command) => run(async () => (await import("./auth-doctor.js")).authDoctorCommand(command.optsWithGlobals<GlobalOptions>(), target, options)));
}
