// The shapes of tool pinning: a held tool, its change, the options and policy.
import type { ToolDiff } from "./diff.js";
import type { PinnedDefinition } from "./hash.js";
import type { PinStore } from "./store.js";

/** A tool not offered to models nor callable until a person approves its definition. */
export interface HeldTool {
  server: string;
  tool: string;
  /** `changed`: differs from the approved definition; `added`: never approved (a new or renamed tool). */
  change: "changed" | "added";
  /** The approved definition and its hash (absent for an added tool). */
  old: PinnedDefinition | undefined;
  oldHash: string | undefined;
  /** What the server lists now, and its hash. */
  definition: PinnedDefinition;
  newHash: string;
  diff: ToolDiff;
  /** ms since the epoch when it was first held. */
  since: number;
}

/** What the `decide` policy is asked about: one server's tools that differ from its pins. */
export interface PinChange {
  server: string;
  /** The server identity the pins are kept under (`pinKey`). */
  key: string;
  tools: HeldTool[];
}

/** The manager's `pins` option. */
export interface PinOptions {
  /** Where pins are kept. Default: `pins.json` in the user's config folder (`FilePinStore`). */
  store?: PinStore | undefined;
  /** Whether a change is approved without a person. Default: every change is held. */
  decide?: ((change: PinChange) => "approve" | "hold" | Promise<"approve" | "hold">) | undefined;
}
