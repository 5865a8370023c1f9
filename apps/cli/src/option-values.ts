import { InvalidArgumentError } from "commander";

// The values of the `mcp` program's options, checked as commander parses them (a bad one is a usage error).

/** A timeout option's value: a positive number of milliseconds. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number of milliseconds");
  return n;
}

/** A port option's value: an integer 0-65535 (0: a free one). */
export function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("expected a port number (0-65535)");
  return n;
}

/** A number of minutes above 0. */
export function minutes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number of minutes above 0");
  return n;
}

/** A whole number above 0. */
export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number above 0");
  return n;
}

/** A repeatable option's values, each occurrence split at commas. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}
