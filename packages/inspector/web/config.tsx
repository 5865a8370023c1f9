// The user's own servers, added, edited and removed from the page (`POST /api/config/…`): written
// to the user's config file only, applied at once. Shown only when the inspector was given that file.
import { useEffect, useState } from "preact/hooks";
import type { ConfigSaveAnswer, ConfigServersAnswer } from "../src/api.js";
import { api, ApiFailure } from "./client.js";

type Entry = Record<string, unknown>;
type Transport = "stdio" | "http" | "sse";

interface Form {
  name: string;
  transport: Transport;
  command: string;
  args: string;
  env: string;
  url: string;
  headers: string;
}

const EMPTY: Form = { name: "", transport: "stdio", command: "", args: "", env: "", url: "", headers: "" };

const record = (value: unknown): Record<string, string> =>
  typeof value === "object" && value !== null ? (value as Record<string, string>) : {};

const textOf = (value: unknown): string => (typeof value === "string" ? value : "");

/** An entry of the file as the form shows it. */
function formOf(name: string, entry: Entry): Form {
  const url = textOf(entry["url"]);
  return {
    name,
    transport: url ? (entry["type"] === "sse" ? "sse" : "http") : "stdio",
    command: textOf(entry["command"]),
    args: Array.isArray(entry["args"]) ? entry["args"].map(textOf).join("\n") : "",
    env: Object.entries(record(entry["env"]))
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
    url,
    headers: Object.entries(record(entry["headers"]))
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n"),
  };
}

/** `KEY<sep>value` lines as an object, or the first line that is not one. */
function pairs(text: string, sep: string, what: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const at = line.indexOf(sep);
    if (at <= 0) return `${what}, line ${i + 1}: write NAME${sep}value`;
    out[line.slice(0, at).trim()] = line.slice(at + sep.length).trim();
  }
  return out;
}

/** The entry to write: the form's fields over what the entry had (its other fields kept), or what is wrong. */
function entryOf(form: Form, before: Entry | undefined): Entry | string {
  const kept: Entry = { ...before };
  for (const key of ["command", "args", "env", "type", "url", "headers"]) delete kept[key];
  if (form.transport === "stdio") {
    delete kept["cwd"];
    if (before && typeof before["cwd"] === "string" && typeof before["command"] === "string")
      kept["cwd"] = before["cwd"];
    if (!form.command.trim()) return "stdio: the command is required";
    const env = pairs(form.env, "=", "env");
    if (typeof env === "string") return env;
    const args = form.args.split("\n").filter((a) => a.trim() !== "");
    return {
      command: form.command.trim(),
      ...(args.length ? { args } : {}),
      ...(Object.keys(env).length ? { env } : {}),
      ...kept,
    };
  }
  delete kept["cwd"];
  if (!form.url.trim()) return `${form.transport}: the URL is required`;
  const headers = pairs(form.headers, ":", "headers");
  if (typeof headers === "string") return headers;
  return {
    type: form.transport,
    url: form.url.trim(),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...kept,
  };
}

/** One line for an entry: what it runs or where it connects. */
function summary(entry: Entry): string {
  const url = textOf(entry["url"]);
  if (url) return `${textOf(entry["type"]) || "http"} ${url}`;
  const args = Array.isArray(entry["args"]) ? ` ${entry["args"].map(textOf).join(" ")}` : "";
  return `${textOf(entry["command"])}${args}`;
}

export function ConfigEditor() {
  const [listed, setListed] = useState<ConfigServersAnswer | undefined>();
  const [form, setForm] = useState<Form>(EMPTY);
  /** The name being edited (its entry replaced on save); undefined: adding. */
  const [editing, setEditing] = useState<string | undefined>();
  const [removing, setRemoving] = useState<string | undefined>();
  const [said, setSaid] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const reload = () =>
    api<ConfigServersAnswer>("/api/config/servers", {})
      .then(setListed)
      .catch((e: Error) => {
        if (!(e instanceof ApiFailure) || !e.message.startsWith("no such endpoint")) setFailure(e.message);
      });
  useEffect(() => void reload(), []);
  if (!listed) return failure ? <div class="banner error config-failure">{failure}</div> : null;
  const entryNamed = (name: string): Entry | undefined =>
    listed.servers.find((s) => s.name === name)?.config as Entry | undefined;
  const set = (key: keyof Form) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((before) => ({ ...before, [key]: value }));
  };
  const save = () => {
    const entry = entryOf(form, editing === undefined ? undefined : entryNamed(editing));
    if (typeof entry === "string") return setFailure(entry);
    setFailure(undefined);
    setSaid(undefined);
    api<ConfigSaveAnswer>("/api/config/save", { name: form.name.trim(), config: entry, replace: editing !== undefined })
      .then((answer) => {
        setSaid(
          `Saved "${form.name.trim()}" in ${listed.file}: ${answer.applied ? "starting it now" : `not started (${answer.reason ?? ""})`}${answer.warnings.map((w) => `. Warning: ${w}`).join("")}`,
        );
        setForm(EMPTY);
        setEditing(undefined);
        return reload();
      })
      .catch((e: Error) => setFailure(e.message));
  };
  const remove = (name: string) => {
    setRemoving(undefined);
    api("/api/config/remove", { name })
      .then(() => {
        setSaid(`Removed "${name}" from ${listed.file}`);
        return reload();
      })
      .catch((e: Error) => setFailure(e.message));
  };
  return (
    <details class="config-editor" open>
      <summary>Your servers</summary>
      <p class="muted">
        In your own config file, <code class="config-file">{listed.file}</code> (the page writes no other): added and
        edited servers start at once; a removed one stops. A project's servers are approved with mcp config approve, not
        here.
      </p>
      <ul class="config-list">
        {listed.servers.map(({ name, config }) => (
          <li data-config={name}>
            <b>{name}</b> <span class="muted">{summary(config as Entry)}</span>{" "}
            <button
              type="button"
              class="small"
              name={`config-edit-${name}`}
              onClick={() => {
                setEditing(name);
                setForm(formOf(name, config as Entry));
              }}
            >
              edit
            </button>{" "}
            {removing === name ? (
              <button type="button" class="small" name={`config-remove-confirm-${name}`} onClick={() => remove(name)}>
                remove "{name}" from the file
              </button>
            ) : (
              <button type="button" class="small" name={`config-remove-${name}`} onClick={() => setRemoving(name)}>
                remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <div class="config-form" data-editing={editing ?? ""}>
        <label>
          name <input name="config-name" value={form.name} disabled={editing !== undefined} onInput={set("name")} />
        </label>{" "}
        <label>
          transport{" "}
          <select
            name="config-transport"
            value={form.transport}
            onChange={(e) => {
              const transport = e.currentTarget.value as Transport;
              setForm((before) => ({ ...before, transport }));
            }}
          >
            <option value="stdio">stdio (a command)</option>
            <option value="http">Streamable HTTP</option>
            <option value="sse">HTTP+SSE</option>
          </select>
        </label>
        {form.transport === "stdio" ? (
          <div>
            <label>
              command <input name="config-command" value={form.command} onInput={set("command")} />
            </label>
            <label>
              arguments, one a line
              <textarea name="config-args" rows={2} value={form.args} onInput={set("args")} />
            </label>
            <label>
              env, NAME=value a line (write {"${VAR}"} for a secret)
              <textarea name="config-env" rows={2} value={form.env} onInput={set("env")} />
            </label>
          </div>
        ) : (
          <div>
            <label>
              URL <input name="config-url" value={form.url} onInput={set("url")} />
            </label>
            <label>
              headers, Name: value a line (write {"${VAR}"} for a secret)
              <textarea name="config-headers" rows={2} value={form.headers} onInput={set("headers")} />
            </label>
          </div>
        )}
        <button type="button" class="small" name="config-save" onClick={save}>
          {editing === undefined ? "add server" : `save "${editing}"`}
        </button>
        {editing === undefined ? null : (
          <button
            type="button"
            class="small"
            name="config-cancel"
            onClick={() => {
              setEditing(undefined);
              setForm(EMPTY);
            }}
          >
            cancel
          </button>
        )}
      </div>
      {said ? <div class="muted config-said">{said}</div> : null}
      {failure ? <div class="banner error config-failure">{failure}</div> : null}
    </details>
  );
}
