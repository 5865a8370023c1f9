// `mcp auth doctor <server|url>`: why sign-in to an HTTP server fails, step by step, with the spec clause and what to do.
import { writeFileSync } from "node:fs";
import { diagnoseServerAuthorization, loopbackStepFor } from "@mcp/manager";
import {
  diagnoseAuthorization,
  doctorReportLines,
  type DoctorReport,
  type DoctorStatus,
  type DoctorTraceEntry,
} from "@mcp/oauth";
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
  const entries: DoctorTraceEntry[] = [];
  const trace = options.trace === undefined ? undefined : (entry: DoctorTraceEntry): void => void entries.push(entry);
  // --sign-in: the browser and a loopback listener on the port the redirect URI names.
  const signIn = (config: MCPServerConfig) =>
    options.signIn
      ? loopbackStepFor(config, { open: options.open, onUrl: (url) => note(`To sign in to ${target}, open: ${url}`) })
      : undefined;
  let report: DoctorReport;
  if (/^https?:\/\//i.test(target)) {
    report = await diagnoseAuthorization(target, {
      trace,
      authorize: signIn({ type: "http", url: target }),
      register: options.register,
    });
  } else {
    const session = await openSession({ ...globals, server: [target] }, { connect: false, allowEmbedded: false });
    try {
      const config = httpConfigOf(session, target);
      report = await diagnoseServerAuthorization(target, config, {
        trace,
        authorize: signIn(config),
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
  else out(doctorReportLines(report, { mark: (text, status) => MARK[status](text), detail: color.dim }).join("\n"));
  return report.ok ? EXIT.ok : EXIT.failure;
}
