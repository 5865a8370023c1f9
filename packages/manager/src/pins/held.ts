// A held tool as a host shows it: why it is held, its facts as plain data, and finding it by any of its names.
import { toolNameFor } from "../names.js";
import type { HeldTool } from "./types.js";

/**
 * Why a tool is held, in words: `its definition changed since it was approved (description,
 * inputSchema)` (the fields that changed), or `it is new since the server's tools were approved`.
 */
export function heldReason(held: Pick<HeldTool, "change" | "diff">): string {
  return held.change === "changed"
    ? `its definition changed since it was approved (${held.diff.fields.join(", ")})`
    : "it is new since the server's tools were approved";
}

/** A held tool as plain data ({@link heldFacts}): what a host prints as JSON or sends to a page. */
export interface HeldFacts {
  server: string;
  tool: string;
  change: HeldTool["change"];
  oldHash: string | undefined;
  newHash: string;
  /** The fields that changed, and the description's and schema's changes. */
  fields: HeldTool["diff"]["fields"];
  description: HeldTool["diff"]["description"];
  schema: HeldTool["diff"]["schema"];
  /** The approved definition (absent for a new tool) and the one listed now. */
  old: HeldTool["old"];
  definition: HeldTool["definition"];
}

/** The facts of a held tool, in this order: server, tool, change, hashes, the diff's parts, the old and new definitions. */
export function heldFacts(held: HeldTool): HeldFacts {
  return {
    server: held.server,
    tool: held.tool,
    change: held.change,
    oldHash: held.oldHash,
    newHash: held.newHash,
    fields: held.diff.fields,
    description: held.diff.description,
    schema: held.diff.schema,
    old: held.old,
    definition: held.definition,
  };
}

/**
 * The held tool a name means: its own name, `server.tool`, or the name models see
 * (`mcp__server__tool`, {@link toolNameFor}). Undefined when none of `held` is named so.
 */
export function findHeld(held: readonly HeldTool[], name: string): HeldTool | undefined {
  return held.find(
    (h) => h.tool === name || toolNameFor(h.server, h.tool) === name || `${h.server}.${h.tool}` === name,
  );
}
