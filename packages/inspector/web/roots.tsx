// The roots the page declares to servers (`roots/list`): one `file://` URI a line, a name after it.
import { useEffect, useState } from "preact/hooks";
import type { InspectorState, RootsAnswer } from "../src/api.js";
import { api } from "./client.js";

/** The lines as roots, or the first line that is not one. */
function parse(textValue: string): { roots: { uri: string; name?: string }[] } | { error: string } {
  const roots: { uri: string; name?: string }[] = [];
  for (const [i, line] of textValue.split("\n").entries()) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const [uri = "", ...name] = trimmed.split(/\s+/);
    if (!uri.startsWith("file://"))
      return { error: `line ${i + 1}: a root is a file:// URI, not ${JSON.stringify(uri)}` };
    roots.push({ uri, ...(name.length ? { name: name.join(" ") } : {}) });
  }
  return { roots };
}

export function RootsEditor() {
  const [textValue, setTextValue] = useState("");
  const [said, setSaid] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  useEffect(() => {
    api<InspectorState>("/api/state")
      .then((state) => setTextValue((state.roots ?? []).map((r) => (r.name ? `${r.uri} ${r.name}` : r.uri)).join("\n")))
      .catch(() => undefined);
  }, []);
  const save = () => {
    const parsed = parse(textValue);
    if ("error" in parsed) return setFailure(parsed.error);
    setFailure(undefined);
    api<RootsAnswer>("/api/roots", { roots: parsed.roots })
      .then((a) =>
        setSaid(
          `${a.roots.length} root${a.roots.length === 1 ? "" : "s"} declared; ${a.notified.length ? `told ${a.notified.join(", ")} (roots/list_changed)` : "no connected server to tell"}`,
        ),
      )
      .catch((e: Error) => setFailure(e.message));
  };
  return (
    <details class="roots" open>
      <summary>Roots</summary>
      <p class="muted">
        What servers are told they may work in (their roots/list): one file:// URI a line, a name after it.
      </p>
      <textarea
        name="roots"
        rows={3}
        value={textValue}
        placeholder="file:///home/me/project my project"
        onInput={(e) => setTextValue(e.currentTarget.value)}
      />
      <button type="button" class="small" name="save-roots" onClick={save}>
        declare roots
      </button>
      {said ? <span class="muted roots-said"> {said}</span> : null}
      {failure ? <div class="banner error roots-failure">{failure}</div> : null}
    </details>
  );
}
