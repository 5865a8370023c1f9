// The page entry: `window.exercise(plan)` for the test (and for a curious reader's console).
import { exercise } from "./exercise.js";

(globalThis as unknown as { exercise: typeof exercise }).exercise = exercise;
