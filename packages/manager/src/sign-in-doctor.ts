// Why sign-in to an HTTP server fails, for a configured server or a bare URL (`mcp auth doctor`):
// the doctor's report, the sign-in step when asked for one, and its redacted trace written to a file.
import { open } from "node:fs/promises";
import type { MCPServerConfig } from "@mcp/client";
import { diagnoseAuthorization, type DiagnoseOptions, type DoctorReport, type DoctorTraceEntry } from "@mcp/oauth";
import { diagnoseServerAuthorization, loopbackStepFor } from "./oauth.js";

/**
 * Writes the trace readable by its owner alone: a file that was there already (another mode) is
 * made mode 600 while still empty, before anything is written in it; one this user cannot make so
 * (another user's) is refused (EPERM), nothing written.
 */
async function writeTrace(file: string, trace: { server: string; requests: DoctorTraceEntry[] }): Promise<void> {
  const handle = await open(file, "w", 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${JSON.stringify(trace, null, 2)}\n`);
  } finally {
    await handle.close();
  }
}

/** Options of {@link diagnoseSignIn}. */
export interface DiagnoseSignInOptions extends Pick<DiagnoseOptions, "register"> {
  /** Sign in for real ({@link loopbackStepFor}: the loopback listener on the config's callback port, and the browser unless `open: false`). */
  signIn?: { open?: boolean | undefined; onUrl?: ((url: string) => void) | undefined } | undefined;
  /** Writes every request and answer, secrets redacted, to this file as JSON `{ server, requests }`, mode 600 (a file already there is made so first). */
  traceFile?: string | undefined;
}

/** What {@link diagnoseSignIn} found. */
export interface SignInDiagnosis {
  report: DoctorReport;
  /** How many requests the trace file holds (0 without `traceFile`). */
  traced: number;
}

/**
 * Diagnoses sign-in to `target`: the server `config` names, with its client id, scopes, profile,
 * proxy and CA as a sign-in would use them ({@link diagnoseServerAuthorization}; `target` is its
 * name), or without a config the URL `target` (`diagnoseAuthorization` of `@mcp/oauth`). Stores no
 * token.
 *
 * @example
 * const { report } = await diagnoseSignIn("https://mcp.example.com/mcp", undefined, { traceFile: "trace.json" });
 */
export async function diagnoseSignIn(
  target: string,
  config: MCPServerConfig | undefined,
  options: DiagnoseSignInOptions = {},
): Promise<SignInDiagnosis> {
  const requests: DoctorTraceEntry[] = [];
  const trace =
    options.traceFile === undefined ? undefined : (entry: DoctorTraceEntry): void => void requests.push(entry);
  const signIn = options.signIn && loopbackStepFor(config ?? { type: "http", url: target }, options.signIn);
  const asked = { trace, authorize: signIn || undefined, register: options.register };
  const report = config
    ? await diagnoseServerAuthorization(target, config, asked)
    : await diagnoseAuthorization(target, asked);
  if (options.traceFile !== undefined) await writeTrace(options.traceFile, { server: report.server, requests });
  return { report, traced: requests.length };
}
