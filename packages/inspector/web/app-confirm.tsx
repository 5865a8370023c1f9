// An app's tool calls, asked of the user first: always for a tool annotated destructive
// (`destructiveHint: true`), and for every tool while the app's "ask before tool calls" switch is on.
import type { ToolRow } from "../src/api.js";

/** A tool call of an app waiting for the user's answer. */
export interface PendingCall {
  tool: string;
  args: unknown;
  answer: (allowed: boolean) => void;
}

/** Whether a call of `tool` (the app's server's tool of that name) must be asked of the user first. */
export function mustAsk(tool: ToolRow | undefined, askAll: boolean): boolean {
  return askAll || tool?.annotations?.["destructiveHint"] === true;
}

/** The switch and the call waiting for an answer, under the app. */
export function AppConfirm({
  askAll,
  onAskAll,
  pending,
}: {
  askAll: boolean;
  onAskAll: (on: boolean) => void;
  pending: PendingCall | undefined;
}) {
  return (
    <div class="app-confirm">
      <label class="muted">
        <input type="checkbox" name="app-ask" checked={askAll} onChange={(e) => onAskAll(e.currentTarget.checked)} />{" "}
        ask before its tool calls (always asked for tools annotated destructive)
      </label>
      {pending ? (
        <div class="app-ask-call" data-tool={pending.tool}>
          The app asks to call <strong>{pending.tool}</strong> with <code>{JSON.stringify(pending.args)}</code>{" "}
          <button type="button" class="small primary" name="app-call-allow" onClick={() => pending.answer(true)}>
            allow
          </button>{" "}
          <button type="button" class="small" name="app-call-refuse" onClick={() => pending.answer(false)}>
            refuse
          </button>
        </div>
      ) : null}
    </div>
  );
}
