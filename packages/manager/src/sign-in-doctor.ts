// Why sign-in to an HTTP server fails, for a configured server or a bare URL (`mcp auth doctor`):
// the doctor's report, the sign-in step when asked for one, and its redacted trace written to a file.
import { writeFile } from "node:fs/promises";
import type { MCPServerConfig } from "@mcp/client";
import { diagnoseAuthorization, type DiagnoseOptions, type DoctorReport, type DoctorTraceEntry } from "@mcp/oauth";
import { diagnoseServerAuthorization, loopbackStepFor } from "./oauth.js";

/** Options of {@link diagnoseSignIn}. */
export interface DiagnoseSignInOptions extends Pick<DiagnoseOptions, "register"> {
  /** Sign in for real ({@link loopbackStepFor}: the loopback listener on the config's callback port, and the browser unless `open: false`). */
  signIn?: { open?: boolean | undefined; onUrl?: ((url: string) => void) | undefined } | undefined;
  /** Writes every request and answer, secrets redacted, to this file as JSON `{ server, requests }` (a new file gets mode 600). */
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
  if (options.traceFile !== undefined)
    await writeFile(options.traceFile, `${JSON.stringify({ server: report.server, requests }, null, 2)}\n`, {
      mode: 0o600,
    });
  return { report, traced: requests.length };
}
