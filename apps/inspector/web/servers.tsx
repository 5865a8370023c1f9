import { useState } from "preact/hooks";
import type { ServerRow } from "../src/api.js";
import { api } from "./client.js";
import { Ms } from "./content.js";

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
      <button type="button" class="small" name={`reconnect-${row.name}`} disabled={busy} onClick={() => act("reconnect")}>
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
    </section>
  );
}
