// `mcp auth doctor <server|url>`: why sign-in to an HTTP server fails, step by step, with the spec clause and what to do.
import { writeFileSync } from "node:fs";
import { DEFAULT_CALLBACK_PORT, diagnoseServerAuthorization, type ServerOAuthConfig } from "@mcp/manager";
import {
  diagnoseAuthorization,
  loopbackAuthorize,
  type Authorize,
  type DoctorReport,
  type DoctorStatus,
  type DoctorTraceEntry,
} from "@mcp/oauth";
import { httpConfigOf } from "./auth-commands.js";
import { openSession, type GlobalOptions } from "./session.js";
import { color, EXIT, note, out, printJson } from "./ui.js";

const MARK: Record<DoctorStatus, string> = {
  pass: color.green("pass"),
  warn: color.yellow("warn"),
  fail: color.red("FAIL"),
  skip: color.dim("skip"),
};

/** The report for a terminal: one line per step, its detail and clause under a failing or warning one. */
function printReport(report: DoctorReport): void {
  out(`Sign-in to ${report.server}: ${report.ok ? "no step fails" : "a step fails"}`);
  const width = Math.max(...report.steps.map((s) => s.step.length));
  for (const s of report.steps) {
    out(`  ${MARK[s.status]}  ${s.step.padEnd(width)}  ${s.advice}`);
    if (s.status === "fail" || s.status === "warn") {
      if (s.detail) out(`  ${" ".repeat(8 + width)}${color.dim(s.detail)}`);
      out(`  ${" ".repeat(8 + width)}${color.dim(s.clause)}`);
    }
  }
}

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
  const entries: DoctorTraceEntry[] = [];
  const trace = options.trace === undefined ? undefined : (entry: DoctorTraceEntry): void => void entries.push(entry);
  // --sign-in: the browser and a loopback listener on the port the redirect URI names.
  const signIn = (port: number): Authorize | undefined =>
    options.signIn
      ? loopbackAuthorize({
          port,
          open: options.open === false ? false : undefined,
          onUrl: (url) => note(`To sign in to ${target}, open: ${url}`),
        })
      : undefined;
  let report: DoctorReport;
  if (/^https?:\/\//i.test(target)) {
    report = await diagnoseAuthorization(target, {
      trace,
      authorize: signIn(DEFAULT_CALLBACK_PORT),
      register: options.register,
    });
  } else {
    const session = await openSession({ ...globals, server: [target] }, { connect: false, allowEmbedded: false });
    try {
      const config = httpConfigOf(session, target);
      const oauth = (config as { oauth?: ServerOAuthConfig | false }).oauth;
      report = await diagnoseServerAuthorization(target, config, {
        trace,
        authorize: signIn((oauth || {}).callbackPort ?? DEFAULT_CALLBACK_PORT),
        register: options.register,
      });
    } finally {
      await session.close();
    }
  }
  if (options.trace !== undefined) {
    writeFileSync(options.trace, `${JSON.stringify({ server: report.server, requests: entries }, null, 2)}\n`, {
      mode: 0o600,
    });
    if (!globals.json) note(`Wrote the trace (${entries.length} requests, secrets redacted) to ${options.trace}`);
  }
  if (globals.json) printJson(report);
  else printReport(report);
  return report.ok ? EXIT.ok : EXIT.failure;
}
