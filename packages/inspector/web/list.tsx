import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { InspectedServer } from "../src/api.js";
import { api } from "./client.js";

/** The names of the servers that declare `capability`. */
export function offering(servers: InspectedServer[], capability: string): string[] {
  return servers.filter((s) => s.capabilities.includes(capability)).map((s) => s.name);
}

/** Rows from a list endpoint, fetched again whenever `key` changes (the set of servers that offer them). */
export function useRows<T>(path: string, key: string): { rows: T[] | undefined; error: string | undefined } {
  const [rows, setRows] = useState<T[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api<T[]>(path, {})
      .then((r) => {
        setRows(r);
        setError(undefined);
      })
      .catch((e: Error) => setError(e.message));
  }, [path, key]);
  return { rows, error };
}

/** The left-hand list of a view: rows grouped under their server's name. */
export function GroupedList<T extends { server: string }>(props: {
  rows: T[] | undefined;
  error?: string | undefined;
  empty: string;
  before?: ComponentChildren;
  item: (row: T) => ComponentChildren;
}) {
  const rows = props.rows ?? [];
  return (
    <aside class="list">
      {props.before}
      {props.error ? <div class="banner error">{props.error}</div> : null}
      {props.rows === undefined && !props.error ? <p class="muted">Loading…</p> : null}
      {[...new Set(rows.map((r) => r.server))].map((server) => (
        <div class="group">
          <h3>{server}</h3>
          {rows.filter((r) => r.server === server).map(props.item)}
        </div>
      ))}
      {props.rows?.length === 0 ? <p class="muted">{props.empty}</p> : null}
    </aside>
  );
}
