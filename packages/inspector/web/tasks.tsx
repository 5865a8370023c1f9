import { useEffect, useState } from "preact/hooks";
import type { TaskRow } from "../src/api.js";
import { api } from "./client.js";

/** Seconds since `ms`, kept fresh while the view is open. */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Tool calls that ran as tasks: their last status and message, newest first; a running one can be cancelled. */
export function TasksView({ tasks }: { tasks: TaskRow[] }) {
  const now = useNow();
  const [error, setError] = useState<string | undefined>();
  const rows = [...tasks].reverse();
  return (
    <section class="view tasks">
      {error ? <div class="banner error">{error}</div> : null}
      {rows.length === 0 ? (
        <p class="muted">
          No tool call has run as a task yet. Tools that require one (execution.taskSupport "required"), and calls a
          2026-07-28 server turns into tasks, show up here.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Tool</th>
              <th>Server</th>
              <th>Status</th>
              <th>Message</th>
              <th>Time</th>
              <th>Task id</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr data-task={row.taskId} data-call={row.id}>
                <td class="name">{row.tool}</td>
                <td>{row.server}</td>
                <td>
                  <span class={`status task-${row.status.replace(/_/g, "-")}`}>{row.status.replace(/_/g, " ")}</span>
                </td>
                <td class="message">{row.statusMessage ?? ""}</td>
                <td>{`${Math.round(((row.ended ? row.updatedAt : now) - row.startedAt) / 1000)} s`}</td>
                <td>
                  <code title={row.taskId}>{row.taskId.slice(0, 8)}</code>
                </td>
                <td>
                  {row.ended ? null : (
                    <button
                      type="button"
                      class="small"
                      name={`cancel-task-${row.id}`}
                      onClick={() => void api("/api/cancel", { id: row.id }).catch((e: Error) => setError(e.message))}
                    >
                      cancel
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
