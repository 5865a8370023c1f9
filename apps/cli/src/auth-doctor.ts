// `mcp auth doctor <server|url>`: why sign-in to an HTTP server fails, step by step, with the spec clause and what to do.
import { diagnoseSignIn, type SignInDiagnosis } from "@mcp/manager";
import { doctorReportLines, type DoctorStatus } from "@mcp/oauth";
import type { MCPServerConfig } from "@mcp/client";
import { httpConfigOf } from "./auth-commands.js";
import { openSession, type GlobalOptions } from "./session.js";
import { color, EXIT, note, out, printJson } from "./ui.js";

const MARK: Record<DoctorStatus, (text: string) => string> = {
  pass: color.green,
  warn: color.yellow,
  fail: color.red,
  skip: color.dim,
};

/**
 * `mcp auth doctor <target>`: a configured HTTP server (its client id, scopes, profile, proxy and
 * CA as a sign-in would use them) or a URL. Exit 1 when a step fails. `--trace` writes every
 * request and answer, secrets redacted, as JSON (mode 600).
 */
export async function authDoctorCommand(
  globals: GlobalOptions,
  target: string,
  options: {
    trace?: string | undefined;
    signIn?: boolean | undefined;
    open?: boolean | undefined;
    register?: boolean | undefined;
  },
): Promise<number> {
  const diagnose = (config?: MCPServerConfig) =>
    diagnoseSignIn(target, config, {
      register: options.register,
      traceFile: options.trace,
      // --sign-in: the browser and a loopback listener on the port the redirect URI names.
      signIn: options.signIn
        ? { open: options.open, onUrl: (url) => note(`To sign in to ${target}, open: ${url}`) }
        : undefined,
    });
  let found: SignInDiagnosis;
  if (/^https?:\/\//i.test(target)) found = await diagnose();
  else {
    const session = await openSession({ ...globals, server: [target] }, { connect: false, allowEmbedded: false });
    try {
      found = await diagnose(httpConfigOf(session, target));
    } finally {
      await session.close();
    }
  }
  const { report, traced } = found;
  if (options.trace !== undefined && !globals.json)
    note(`Wrote the trace (${traced} requests, secrets redacted) to ${options.trace}`);
  if (globals.json) printJson(report);
  else out(doctorReportLines(report, { mark: (text, status) => MARK[status](text), detail: color.dim }).join("\n"));
  return report.ok ? EXIT.ok : EXIT.failure;
}
