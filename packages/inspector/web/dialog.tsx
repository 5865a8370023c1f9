import { useState } from "preact/hooks";
import type { Dialog, DialogAnswer } from "../src/api.js";
import { api } from "./client.js";
import { Content } from "./content.js";
import { SchemaForm } from "./form.js";
import { initialValue, missingRequired, prune } from "./schema.js";

/** A server's question to the user (elicitation or sampling), answered in a modal dialog. */
export function DialogView({ dialog }: { dialog: Dialog }) {
  const [content, setContent] = useState<Record<string, unknown>>(() =>
    dialog.kind === "elicitation"
      ? ((initialValue(dialog.requestedSchema) as Record<string, unknown> | undefined) ?? {})
      : {},
  );
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const answer = (action: DialogAnswer["action"]) => {
    if (action === "accept" && dialog.kind === "elicitation" && dialog.url === undefined) {
      const missing = missingRequired(dialog.requestedSchema, content);
      if (missing.length) return setError(`Required: ${missing.join(", ")}`);
    }
    const body: DialogAnswer = {
      id: dialog.id,
      action,
      ...(dialog.kind === "elicitation" ? { content: prune(content) as Record<string, unknown> } : { text }),
    };
    api("/api/dialog", body).catch((e: Error) => setError(e.message));
  };
  return (
    <div class="overlay">
      <div class="dialog" role="dialog" aria-modal="true" data-kind={dialog.kind}>
        <h2>
          {dialog.kind === "elicitation" ? "The server asks" : "The server asks for a model reply"}{" "}
          <span class="muted">{dialog.server}</span>
        </h2>
        {dialog.task ? (
          <p class="dialog-task muted">
            Sent as a task (<code>{dialog.task.slice(0, 8)}</code>): the server polls for your answer, and the Tasks
            view shows it.
          </p>
        ) : null}
        <div class="dialog-body">
          {dialog.kind === "elicitation" ? (
            <>
              <p class="message">{dialog.message}</p>
              {dialog.url ? (
                <p class="elicit-url">
                  It asks you to open{" "}
                  {/^https?:\/\//i.test(dialog.url) ? (
                    <a href={dialog.url} target="_blank" rel="noopener noreferrer">
                      {dialog.url}
                    </a>
                  ) : (
                    <code>{dialog.url}</code>
                  )}{" "}
                  (in a new tab, yours to open), then accept when done, or decline.
                </p>
              ) : (
                <SchemaForm
                  schema={dialog.requestedSchema}
                  value={content}
                  onChange={(v) => {
                    setContent(v);
                    setError(undefined);
                  }}
                />
              )}
            </>
          ) : (
            <>
              {dialog.systemPrompt ? <p class="muted">System: {dialog.systemPrompt}</p> : null}
              {dialog.messages.map((m) => (
                <div class={`message ${m.role}`}>
                  <div class="role">{m.role}</div>
                  <Content block={m.content} />
                </div>
              ))}
              <label class="field">
                <span class="label">Your reply (sent as the assistant's message)</span>
                <textarea name="sampling-reply" rows={4} value={text} onInput={(e) => setText(e.currentTarget.value)} />
              </label>
            </>
          )}
        </div>
        {error ? <div class="error-text">{error}</div> : null}
        <div class="buttons">
          <button type="button" class="primary" name="accept" onClick={() => answer("accept")}>
            {dialog.kind === "sampling" ? "Send" : "Accept"}
          </button>
          <button type="button" name="decline" onClick={() => answer("decline")}>
            Decline
          </button>
          {dialog.kind === "elicitation" ? (
            <button type="button" name="cancel-dialog" onClick={() => answer("cancel")}>
              Cancel
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
