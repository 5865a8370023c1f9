// The page entry: `window.exercise(plan)`, `window.signInAndCall(url, tool)` and the popup step
// itself for the test (and for a curious reader's console).
import { popupAuthorize } from "@mcp/oauth";
import { exercise } from "./exercise.js";
import { signInAndCall } from "./oauth.js";

Object.assign(globalThis, { exercise, signInAndCall, popupAuthorize });
