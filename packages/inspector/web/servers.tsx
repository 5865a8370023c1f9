import { useState } from "preact/hooks";
import type { AuthDoctorAnswer, ServerRow } from "../src/api.js";
import { api } from "./client.js";
import { Ms } from "./content.js";
import { ConfigEditor } from "./config.js";
import { RootsEditor } from "./roots.js";
import { SignIn } from "./sign-in.js";

function Actions({ row, onError }: { row: ServerRow; onError: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const act = (what: "reconnect" | "disable") => {
    setBusy(true);
    api(`/api/servers/${what}`, { server: row.name })
      .catch((error: Error) => onError(`${row.name}: ${error.message}`))
      .finally(() => setBusy(false));
  };
  if (row.status === "invalid" || row.status === "not approved") return null;
  return (
    <span class="actions">
      <button
        type="button"
        class="small"
        name={`reconnect-${row.name}`}
        disabled={busy}
        onClick={() => act("reconnect")}
      >
        {row.status === "disabled" ? "enable" : "reconnect"}
      </button>
      {row.status === "disabled" ? null : (
        <button type="button" class="small" name={`disable-${row.name}`} disabled={busy} onClick={() => act("disable")}>
          disable
        </button>
      )}
    </span>
  );
}

const MARK: Record<AuthDoctorAnswer["steps"][number]["status"], string> = {
  pass: "pass",
  warn: "warn",
  fail: "FAIL",
  skip: "skip",
};

/**
 * The sign-in doctor of an HTTP server (`mcp auth doctor <server>`): each step with its status,
 * what to do and its spec clause. Never signs in; registers a client only from its own button.
 */
function AuthDoctor({ row }: { row: ServerRow }) {
  const [report, setReport] = useState<AuthDoctorAnswer | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const run = (register: boolean) => {
    setBusy(true);
    setError(undefined);
    api<AuthDoctorAnswer>("/api/auth/doctor", { server: row.name, register })
      .then(setReport)
      .catch((e: Error) => setError(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <details class="auth-doctor" data-doctor={row.name}>
      <summary>sign-in doctor · sign in</summary>
      <p class="muted">
        Checks each step of signing in to this server without signing in (as `mcp auth doctor {row.name}`).
      </p>
      <button type="button" class="small" name={`doctor-${row.name}`} disabled={busy} onClick={() => run(false)}>
        check sign-in
      </button>{" "}
      <button
        type="button"
        class="small"
        name={`doctor-register-${row.name}`}
        disabled={busy}
        onClick={() => run(true)}
      >
        check, registering a client (dynamic registration)
      </button>
      {busy ? <span class="muted"> checking…</span> : null}
      <SignIn server={row.name} />
      {error ? <div class="banner error">{error}</div> : null}
      {report ? (
        <div class="doctor-report">
          <p class={report.ok ? "ok" : "error"}>
            Sign-in to {report.server}: {report.ok ? "no step fails" : "a step fails"}
          </p>
          <table>
            <tbody>
              {report.steps.map((s) => (
                <tr data-step={s.step} class={`doctor-${s.status}`}>
                  <td class="doctor-status">{MARK[s.status]}</td>
                  <td class="doctor-step">{s.step}</td>
                  <td>
                    <span class="doctor-advice">{s.advice}</span>
                    {s.detail ? <div class="muted doctor-detail">{s.detail}</div> : null}
                    <div class="muted doctor-clause">{s.clause}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}

export function ServersView({ servers }: { servers: ServerRow[] }) {
  const [error, setError] = useState<string | undefined>();
  return (
    <section class="view servers">
      {error ? <div class="banner error">{error}</div> : null}
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Status</th>
            <th>Transport</th>
            <th>Source</th>
            <th>Tools</th>
            <th>Connect</th>
            <th>Last error</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {servers.map((row) => (
            <tr data-server={row.name}>
              <td class="name">{row.name}</td>
              <td>
                <span class={`status ${row.status.replace(/\s+/g, "-")}`}>{row.status}</span>
              </td>
              <td>{row.transport}</td>
              <td class="source" title={row.source}>
                {row.source}
              </td>
              <td>{row.tools ?? ""}</td>
              <td>
                <Ms ms={row.connectMs} />
              </td>
              <td class="last-error">
                {row.lastError ?? ""}
                {row.transport === "http" || row.transport === "sse" ? <AuthDoctor row={row} /> : null}
                {row.stderrTail ? (
                  <details>
                    <summary>stderr</summary>
                    <pre>{row.stderrTail}</pre>
                  </details>
                ) : null}
              </td>
              <td>
                <Actions row={row} onError={setError} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {servers.length === 0 ? <p class="muted">No servers configured.</p> : null}
      <ConfigEditor />
      <RootsEditor />
    </section>
  );
}
