import { useEffect, useRef, useState } from "preact/hooks";
import type { CompleteRequestBody } from "../src/api.js";
import { api } from "./client.js";

/** A text input that asks the server for completions as you type (`completion/complete`). */
export function CompletingInput(props: {
  server: string;
  ref_: CompleteRequestBody["ref"];
  name: string;
  value: string;
  context: Record<string, string>;
  onChange: (value: string) => void;
  enabled: boolean;
}) {
  const [values, setValues] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = `complete-${props.name}`;
  const ask = (value: string) => {
    if (!props.enabled) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const body: CompleteRequestBody = {
        server: props.server,
        ref: props.ref_,
        argument: { name: props.name, value },
        context: { arguments: props.context },
      };
      api<{ values: string[] }>("/api/complete", body)
        .then((answer) => setValues(answer.values))
        .catch(() => setValues([]));
    }, 120);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <>
      <input
        type="text"
        name={props.name}
        list={listId}
        value={props.value}
        autocomplete="off"
        onFocus={(e) => ask(e.currentTarget.value)}
        onInput={(e) => {
          props.onChange(e.currentTarget.value);
          ask(e.currentTarget.value);
        }}
      />
      <datalist id={listId}>
        {values.map((v) => (
          <option value={v} />
        ))}
      </datalist>
      {values.length > 0 ? (
        <div class="suggestions" data-for={props.name}>
          {values.slice(0, 8).map((v) => (
            <button type="button" class="chip" onClick={() => props.onChange(v)}>
              {v}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}
