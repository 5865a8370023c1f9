// A form generated from a JSON Schema: strings, numbers, booleans, enums, arrays and nested objects,
// with required marks, defaults and descriptions; anything else is edited as JSON.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { JsonSchema } from "../src/api.js";
import { choicesOf, initialValue, typeOf } from "./schema.js";

interface FieldProps {
  schema: JsonSchema;
  value: unknown;
  onChange: (value: unknown) => void;
  /** Dotted path: the input's `name`, so tests and people can find it. */
  path: string;
  label: string;
  required: boolean;
}

function Help({ schema }: { schema: JsonSchema }) {
  return schema.description ? <small class="help">{schema.description}</small> : null;
}

function Label({ label, required, type }: { label: string; required: boolean; type: string | undefined }) {
  return (
    <span class="label">
      {label}
      {required ? (
        <span class="required" title="required">
          *
        </span>
      ) : null}
      {type ? <span class="type">{type}</span> : null}
    </span>
  );
}

function JsonField({ value, onChange, path }: { value: unknown; onChange: (v: unknown) => void; path: string }) {
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <textarea
      name={path}
      class={bad ? "json invalid" : "json"}
      value={text}
      rows={3}
      onInput={(e) => {
        const t = e.currentTarget.value;
        setText(t);
        if (t.trim() === "") {
          setBad(false);
          onChange(undefined);
          return;
        }
        try {
          onChange(JSON.parse(t));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

/** A fieldset for a compound value: its label, type and description, then its parts. */
function Group({
  kind,
  label,
  required,
  type,
  schema,
  children,
}: {
  kind: string;
  label: string;
  required: boolean;
  type: string;
  schema: JsonSchema;
  children: ComponentChildren;
}) {
  return (
    <fieldset class={`field ${kind}`}>
      <legend>
        <Label label={label} required={required} type={type} />
      </legend>
      <Help schema={schema} />
      {children}
    </fieldset>
  );
}

export function Field({ schema, value, onChange, path, label, required }: FieldProps) {
  const type = typeOf(schema);
  const choices = choicesOf(schema);
  if (choices) {
    const index = choices.findIndex((c) => c.value === value);
    return (
      <label class="field">
        <Label label={label} required={required} type="enum" />
        <select
          name={path}
          value={index < 0 ? "" : String(index)}
          onChange={(e) =>
            onChange(e.currentTarget.value === "" ? undefined : choices[Number(e.currentTarget.value)]!.value)
          }
        >
          {required && index >= 0 ? null : <option value="">—</option>}
          {choices.map((c, i) => (
            <option value={String(i)}>{c.label}</option>
          ))}
        </select>
        <Help schema={schema} />
      </label>
    );
  }
  switch (type) {
    case "boolean":
      return (
        <label class="field check">
          <input
            type="checkbox"
            name={path}
            checked={value === true}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />
          <Label label={label} required={required} type="boolean" />
          <Help schema={schema} />
        </label>
      );
    case "number":
    case "integer":
      return (
        <label class="field">
          <Label label={label} required={required} type={type} />
          <input
            type="number"
            name={path}
            step={type === "integer" ? 1 : "any"}
            min={schema.minimum}
            max={schema.maximum}
            value={typeof value === "number" ? String(value) : ""}
            onInput={(e) => {
              const t = e.currentTarget.value;
              onChange(t === "" ? undefined : Number(t));
            }}
          />
          <Help schema={schema} />
        </label>
      );
    case "string": {
      const text = typeof value === "string" ? value : "";
      const set = (e: { currentTarget: HTMLInputElement }) => onChange(e.currentTarget.value);
      return (
        <label class="field">
          <Label label={label} required={required} type={schema.format ? `string (${schema.format})` : "string"} />
          {schema.format === "email" ? (
            <input type="email" name={path} value={text} onInput={set} />
          ) : schema.format === "uri" ? (
            <input type="url" name={path} value={text} onInput={set} />
          ) : schema.format === "date" ? (
            <input type="date" name={path} value={text} onInput={set} />
          ) : (
            <input type="text" name={path} value={text} onInput={set} />
          )}
          <Help schema={schema} />
        </label>
      );
    }
    case "array": {
      const items: unknown[] = Array.isArray(value) ? (value as unknown[]) : [];
      const itemSchema = schema.items ?? {};
      const itemChoices = choicesOf(itemSchema);
      if (itemChoices) {
        // A multiple choice: one checkbox per value.
        return (
          <Group kind="array choices" label={label} required={required} type="multiple choice" schema={schema}>
            {itemChoices.map((c, i) => (
              <label class="check">
                <input
                  type="checkbox"
                  name={`${path}.${i}`}
                  checked={items.includes(c.value)}
                  onChange={(e) =>
                    onChange(e.currentTarget.checked ? [...items, c.value] : items.filter((v) => v !== c.value))
                  }
                />
                {c.label}
              </label>
            ))}
          </Group>
        );
      }
      return (
        <Group kind="array" label={label} required={required} type="array" schema={schema}>
          {items.map((item, i) => (
            <div class="item">
              <Field
                schema={itemSchema}
                value={item}
                path={`${path}.${i}`}
                label={`${i + 1}`}
                required={false}
                onChange={(v) => onChange(items.map((old, j) => (j === i ? v : old)))}
              />
              <button
                type="button"
                class="small"
                title="remove"
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                remove
              </button>
            </div>
          ))}
          <button
            type="button"
            class="small"
            name={`${path}.add`}
            onClick={() => onChange([...items, initialValue(itemSchema)])}
          >
            add item
          </button>
        </Group>
      );
    }
    case "object":
    default:
      if (type === "object" && schema.properties) {
        return (
          <Group kind="object" label={label} required={required} type="object" schema={schema}>
            <ObjectFields schema={schema} value={value} onChange={onChange} path={path} />
          </Group>
        );
      }
      // Anything else (an object with no declared properties, a union, no type): edit it as JSON.
      return (
        <label class="field">
          <Label label={label} required={required} type={type ?? "json"} />
          <JsonField value={value} onChange={onChange} path={path} />
          <Help schema={schema} />
        </label>
      );
  }
}

function ObjectFields({
  schema,
  value,
  onChange,
  path,
}: {
  schema: JsonSchema;
  value: unknown;
  onChange: (v: unknown) => void;
  path: string;
}) {
  const object = (value && typeof value === "object" && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([key, child]) => (
        <Field
          schema={child}
          value={object[key]}
          path={path ? `${path}.${key}` : key}
          label={child.title ?? key}
          required={schema.required?.includes(key) === true}
          onChange={(v) => onChange({ ...object, [key]: v })}
        />
      ))}
    </>
  );
}

/** The whole form for an object schema, with a raw-JSON mode. */
export function SchemaForm({
  schema,
  value,
  onChange,
}: {
  schema: JsonSchema | undefined;
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
}) {
  const [raw, setRaw] = useState(false);
  const [text, setText] = useState("");
  const [bad, setBad] = useState<string | undefined>();
  const hasFields = schema?.properties !== undefined && Object.keys(schema.properties).length > 0;
  return (
    <div class="schema-form">
      <div class="mode">
        <button
          type="button"
          class={raw ? "tab" : "tab active"}
          onClick={() => setRaw(false)}
          disabled={bad !== undefined}
        >
          Form
        </button>
        <button
          type="button"
          class={raw ? "tab active" : "tab"}
          name="raw-json"
          onClick={() => {
            setText(JSON.stringify(value, null, 2));
            setRaw(true);
          }}
        >
          JSON
        </button>
      </div>
      {raw ? (
        <>
          <textarea
            class={bad ? "json invalid" : "json"}
            name="arguments-json"
            rows={8}
            value={text}
            onInput={(e) => {
              const t = e.currentTarget.value;
              setText(t);
              try {
                const parsed: unknown = JSON.parse(t || "{}");
                if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
                  throw new Error("the arguments must be a JSON object");
                setBad(undefined);
                onChange(parsed as Record<string, unknown>);
              } catch (error) {
                setBad((error as Error).message);
              }
            }}
          />
          {bad ? <div class="error-text">{bad}</div> : null}
        </>
      ) : hasFields ? (
        <ObjectFields schema={schema} value={value} onChange={(v) => onChange(v as Record<string, unknown>)} path="" />
      ) : (
        <p class="muted">No arguments.</p>
      )}
    </div>
  );
}
