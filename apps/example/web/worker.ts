// The module worker entry: one plan in, one summary (or `{ error }`) out.
import { exercise, type Plan } from "./exercise.js";

const scope = globalThis as unknown as {
  onmessage: ((event: { data: Plan }) => void) | null;
  postMessage(value: unknown): void;
};
scope.onmessage = (event) => {
  exercise(event.data).then(
    (summary) => scope.postMessage(summary),
    (error: unknown) =>
      scope.postMessage({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
};
