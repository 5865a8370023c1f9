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

/**
 * Tool calls that ran as tasks, and the servers' requests the inspector ran as tasks for them
 * (`for the server`): their last status and message, newest first; a running one can be cancelled
 * (a tool call with `tasks/cancel`, a request by answering its dialog `cancel`).
 */
export function TasksView({ tasks }: { tasks: TaskRow[] }) {
  const now = useNow();
  const [error, setError] = useState<string | undefined>();
  const rows = [...tasks].reverse();
  return (
    <section class="view tasks">
      {error ? <div class="banner error">{error}</div> : null}
      {rows.length === 0 ? (
        <p class="muted">
          No tool call has run as a task yet. Tools that require one (execution.taskSupport "required"), tools that may
          run as one called with "run as a task", calls a 2026-07-28 server turns into tasks, and a server's elicitation
          or sampling request sent as a task (which the inspector runs for it) show up here.
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
              <tr data-task={row.taskId} data-call={row.id} data-runner={row.runner ?? "server"}>
                <td class="name">
                  {row.tool}
                  {row.runner === "client" ? (
                    <span class="tag" title="the server sent this request as a task; the inspector runs it">
                      for the server
                    </span>
                  ) : null}
                </td>
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
                      onClick={() =>
                        void (
                          row.runner === "client"
                            ? api("/api/dialog", { id: row.id, action: "cancel" })
                            : api("/api/cancel", { id: row.id })
                        ).catch((e: Error) => setError(e.message))
                      }
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
