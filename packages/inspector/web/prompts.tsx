import { useState } from "preact/hooks";
import type { InspectedServer, PromptAnswer, PromptRow } from "../src/api.js";
import { api } from "./client.js";
import { CompletingInput } from "./complete.js";
import { Content, Ms } from "./content.js";
import { GroupedList, offering, useRows } from "./list.js";

function PromptPanel({
  prompt,
  completions,
  onOpenResource,
}: {
  prompt: PromptRow;
  completions: boolean;
  onOpenResource: (uri: string) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<PromptAnswer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const get = () => {
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !values[a.name]).map((a) => a.name);
    if (missing.length) {
      setError(`Required: ${missing.join(", ")}`);
      return;
    }
    setBusy(true);
    setError(undefined);
    const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
    api<PromptAnswer>("/api/prompt", { server: prompt.server, name: prompt.name, arguments: args })
      .then(setAnswer)
      .catch((e: Error) => setError(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <div class="prompt-panel" data-prompt={prompt.name}>
      <h2>
        {prompt.title ?? prompt.name} <span class="muted">{prompt.server}</span>
      </h2>
      {prompt.description ? <p class="description">{prompt.description}</p> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          get();
        }}
      >
        {(prompt.arguments ?? []).map((a) => (
          <label class="field">
            <span class="label">
              {a.name}
              {a.required ? <span class="required">*</span> : null}
            </span>
            <CompletingInput
              server={prompt.server}
              ref_={{ type: "ref/prompt", name: prompt.name }}
              name={a.name}
              value={values[a.name] ?? ""}
              context={values}
              enabled={completions}
              onChange={(v) => setValues({ ...values, [a.name]: v })}
            />
            {a.description ? <small class="help">{a.description}</small> : null}
          </label>
        ))}
        {(prompt.arguments ?? []).length === 0 ? <p class="muted">No arguments.</p> : null}
        <button type="submit" class="primary" name="get-prompt" disabled={busy}>
          Get prompt
        </button>
      </form>
      {error ? <div class="banner error">{error}</div> : null}
      {answer ? (
        <div class="messages">
          <Ms ms={answer.ms} />
          {answer.description ? <p class="description">{answer.description}</p> : null}
          {answer.messages.map((m) => (
            <div class={`message ${m.role}`}>
              <div class="role">{m.role}</div>
              <Content block={m.content} onOpenResource={onOpenResource} />
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function PromptsView({
  servers,
  onOpenResource,
}: {
  servers: InspectedServer[];
  onOpenResource: (server: string, uri: string) => void;
}) {
  const serverNames = offering(servers, "prompts");
  const completions = new Set(offering(servers, "completions"));
  const { rows, error } = useRows<PromptRow>("/api/prompts", serverNames.join(","));
  const [selected, setSelected] = useState<PromptRow | undefined>();
  return (
    <section class="view split">
      <GroupedList
        rows={rows}
        error={error}
        empty="No prompts."
        item={(r) => (
          <button
            type="button"
            class={selected === r ? "item active" : "item"}
            data-prompt={r.name}
            onClick={() => setSelected(r)}
          >
            <span class="item-name">{r.name}</span>
            {r.description ? <span class="item-desc">{r.description}</span> : null}
          </button>
        )}
      />
      <div class="detail">
        {selected ? (
          <PromptPanel
            key={`${selected.server} ${selected.name}`}
            prompt={selected}
            completions={completions.has(selected.server)}
            onOpenResource={(uri) => onOpenResource(selected.server, uri)}
          />
        ) : (
          <p class="muted">Choose a prompt.</p>
        )}
      </div>
    </section>
  );
}
