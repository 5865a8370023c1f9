import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const roots: string[] = [];

/** A throwaway folder holding `files` (objects written as JSON); removed by {@link removeWorkspaces}. */
export function workspace(files: Record<string, string | object>, prefix = "workspace-"): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === "string" ? content : JSON.stringify(content));
  }
  return root;
}

/** Removes every workspace made so far (call it in `afterEach`). */
export function removeWorkspaces(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}
