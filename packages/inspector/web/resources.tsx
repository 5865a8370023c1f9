import { useEffect, useState } from "preact/hooks";
import type { InspectedServer, ReadAnswer, ResourceRow } from "../src/api.js";
import { api } from "./client.js";
import { CompletingInput } from "./complete.js";
import { GroupedList, offering, useRows } from "./list.js";
import { Blob, Ms } from "./content.js";
import { expandTemplate, templateVariables } from "./schema.js";

export interface Target {
  server: string;
  uri: string;
}

function Contents({ answer }: { answer: ReadAnswer }) {
  return (
    <div class="read-result">
      <Ms ms={answer.ms} />
      {answer.contents.map((c) => (
        <div class="content-item">
          <div>
            <code>{c.uri}</code> {c.mimeType ? <span class="muted">{c.mimeType}</span> : null}
          </div>
          {c.text !== undefined ? (
            <pre class="content text">{c.text}</pre>
          ) : c.blob !== undefined ? (
            <Blob uri={c.uri} mimeType={c.mimeType} blob={c.blob} />
          ) : null}
        </div>
      ))}
    </div>
  );
}

function Reader({ target, subscribable, updates }: { target: Target; subscribable: boolean; updates: number }) {
  const [answer, setAnswer] = useState<ReadAnswer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [subscribed, setSubscribed] = useState(false);
  useEffect(() => {
    let live = true;
    api<ReadAnswer>("/api/read", target)
      .then((a) => live && (setAnswer(a), setError(undefined)))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [target.server, target.uri, updates]);
  useEffect(
    () => () => {
      if (subscribed) void api("/api/subscribe", { ...target, on: false }).catch(() => undefined);
    },
    [subscribed, target.server, target.uri],
  );
  const toggle = () => {
    api("/api/subscribe", { ...target, on: !subscribed })
      .then(() => setSubscribed(!subscribed))
      .catch((e: Error) => setError(e.message));
  };
  return (
    <div class="reader" data-uri={target.uri}>
      <h2>
        <code>{target.uri}</code> <span class="muted">{target.server}</span>
      </h2>
      {subscribable ? (
        <button type="button" class="small" name="subscribe" onClick={toggle}>
          {subscribed ? "unsubscribe" : "subscribe"}
        </button>
      ) : null}
      {subscribed ? <span class="tag live">live: {updates} updates</span> : null}
      {error ? (
        <div class="banner error">{error}</div>
      ) : answer ? (
        <Contents answer={answer} />
      ) : (
        <p class="muted">Reading…</p>
      )}
    </div>
  );
}

function TemplateForm({
  row,
  completions,
  onRead,
}: {
  row: ResourceRow;
  completions: boolean;
  onRead: (uri: string) => void;
}) {
  const names = templateVariables(row.uri);
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      class="template-form"
      data-template={row.uri}
      onSubmit={(e) => {
        e.preventDefault();
        onRead(expandTemplate(row.uri, values));
      }}
    >
      <h2>
        <code>{row.uri}</code> <span class="muted">{row.server}</span>
      </h2>
      {row.description ? <p class="description">{row.description}</p> : null}
      {names.map((name) => (
        <label class="field">
          <span class="label">{name}</span>
          <CompletingInput
            server={row.server}
            ref_={{ type: "ref/resource", uri: row.uri }}
            name={name}
            value={values[name] ?? ""}
            context={values}
            enabled={completions}
            onChange={(v) => setValues({ ...values, [name]: v })}
          />
        </label>
      ))}
      <div class="muted">
        URI: <code>{expandTemplate(row.uri, values)}</code>
      </div>
      <button type="submit" class="primary" name="read-template">
        Read
      </button>
    </form>
  );
}

export function ResourcesView({
  servers,
  open,
  updates,
}: {
  servers: InspectedServer[];
  open: Target | undefined;
  updates: Map<string, number>;
}) {
  const serverNames = offering(servers, "resources");
  const completions = new Set(offering(servers, "completions"));
  const { rows, error } = useRows<ResourceRow>("/api/resources", serverNames.join(","));
  const [target, setTarget] = useState<Target | undefined>(open);
  const [template, setTemplate] = useState<ResourceRow | undefined>();
  useEffect(() => {
    if (open) {
      setTarget(open);
      setTemplate(undefined);
    }
  }, [open]);
  const subscribable = target ? servers.find((s) => s.name === target.server)?.subscribe === true : false;
  return (
    <section class="view split">
      <GroupedList
        rows={rows}
        error={error}
        empty="No resources."
        item={(r) => (
          <button
            type="button"
            class={(r.template ? template?.uri === r.uri : target?.uri === r.uri) ? "item active" : "item"}
            data-uri={r.uri}
            onClick={() => {
              if (r.template) {
                setTemplate(r);
                setTarget(undefined);
              } else {
                setTarget({ server: r.server, uri: r.uri });
                setTemplate(undefined);
              }
            }}
          >
            <span class="item-name">
              {r.name} {r.template ? <span class="tag">template</span> : null}
            </span>
            <span class="item-desc">{r.uri}</span>
          </button>
        )}
      />
      <div class="detail">
        {template ? (
          <TemplateForm
            key={template.uri}
            row={template}
            completions={completions.has(template.server)}
            onRead={(uri) => setTarget({ server: template.server, uri })}
          />
        ) : null}
        {target ? (
          <Reader
            key={`${target.server} ${target.uri}`}
            target={target}
            subscribable={subscribable}
            updates={updates.get(`${target.server} ${target.uri}`) ?? 0}
          />
        ) : null}
        {!template && !target ? <p class="muted">Choose a resource or a template.</p> : null}
      </div>
    </section>
  );
}
