// PendingRequests under random traffic (fast-check): tracks with every option, answers, rejections,
// aborts through shared signals, progress, labels, time passing, and settle hooks that track again
// (a retry): every request settles exactly once and no timer is left once all have settled.
import fc from "fast-check";
import { afterEach, expect, it, vi } from "vitest";
import { PendingRequests } from "../src/internal.js";

afterEach(() => vi.useRealTimers());

type Op =
  | {
      k: "track";
      timeout: number;
      signal: number | undefined;
      reset: boolean;
      maxTotal: number | undefined;
      hook: boolean;
      progress: boolean;
    }
  | { k: "resolve"; pick: number }
  | { k: "reject"; pick: number }
  | { k: "abort"; sig: number }
  | { k: "advance"; ms: number }
  | { k: "progress"; pick: number }
  | { k: "label"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant("track" as const),
    timeout: fc.constantFrom(0, 1, 10, 10, 10, 50, Infinity),
    signal: fc.option(fc.nat(2), { nil: undefined }),
    reset: fc.boolean(),
    maxTotal: fc.option(fc.constantFrom(0, 3, 20, 100), { nil: undefined }),
    hook: fc.boolean(),
    progress: fc.boolean(),
  }),
  fc.record({ k: fc.constant("resolve" as const), pick: fc.nat(50) }),
  fc.record({ k: fc.constant("reject" as const), pick: fc.nat(50) }),
  fc.record({ k: fc.constant("abort" as const), sig: fc.nat(2) }),
  fc.record({ k: fc.constant("advance" as const), ms: fc.nat(30) }),
  fc.record({ k: fc.constant("progress" as const), pick: fc.nat(50) }),
  fc.record({ k: fc.constant("label" as const), pick: fc.nat(50) }),
);

it("every request settles once, no timers left", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 80 }), fc.boolean(), async (ops, retrack) => {
      vi.useFakeTimers();
      try {
        const tracker = new PendingRequests({ onCancel: () => undefined });
        const signals = [new AbortController(), new AbortController(), new AbortController()];
        const settled = new Map<number, number>();
        const ids: number[] = [];
        const all: Promise<unknown>[] = [];
        const track = (o: Extract<Op, { k: "track" }>): void => {
          const id = tracker.nextId();
          ids.push(id);
          settled.set(id, 0);
          const p = tracker.track(
            id,
            "m",
            {
              timeout: o.timeout,
              ...(o.signal === undefined ? {} : { signal: signals[o.signal]!.signal }),
              ...(o.reset ? { resetTimeoutOnProgress: true } : {}),
              ...(o.maxTotal === undefined ? {} : { maxTotalTimeout: o.maxTotal }),
              ...(o.progress ? { onProgress: () => undefined } : {}),
            },
            o.hook
              ? {
                  onSettled: (answered) => {
                    if (!answered && retrack && ids.length < 200) track({ ...o, hook: false, signal: undefined });
                  },
                }
              : undefined,
          );
          all.push(
            p.then(
              () => settled.set(id, settled.get(id)! + 1),
              () => settled.set(id, settled.get(id)! + 1),
            ),
          );
        };
        for (const o of ops) {
          const id = ids.length ? ids[(o as { pick?: number }).pick! % ids.length] : undefined;
          if (o.k === "track") track(o);
          else if (o.k === "resolve" && id !== undefined) tracker.resolve(id, 1);
          else if (o.k === "reject" && id !== undefined) tracker.reject(id, new Error("x"));
          else if (o.k === "abort") {
            signals[o.sig]!.abort(new Error("a"));
            signals[o.sig] = new AbortController();
          } else if (o.k === "advance") vi.advanceTimersByTime(o.ms);
          else if (o.k === "progress" && id !== undefined) tracker.handleProgress({ progressToken: id, progress: 1 });
          else if (o.k === "label" && id !== undefined) tracker.setTimeoutLabel(id, "L");
        }
        while (tracker.size > 0) tracker.rejectAll(new Error("end"));
        await Promise.all(all);
        expect(tracker.size).toBe(0);
        for (const [, n] of settled) expect(n).toBe(1);
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    }),
    {
      numRuns: 1500,
      examples: [
        [
          [
            {
              k: "track",
              timeout: 10,
              signal: undefined,
              reset: false,
              maxTotal: undefined,
              hook: true,
              progress: false,
            },
            { k: "advance", ms: 5 },
            {
              k: "track",
              timeout: 10,
              signal: undefined,
              reset: false,
              maxTotal: undefined,
              hook: false,
              progress: false,
            },
            { k: "advance", ms: 5 },
          ],
          true,
        ],
      ],
    },
  );
});
