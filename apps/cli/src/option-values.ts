import { InvalidArgumentError } from "commander";

// The values of the `mcp` program's options, checked as commander parses them (a bad one is a usage error).

/** A number option's parser: the number, or a usage error saying what was expected. */
function number(fits: (n: number) => boolean, expected: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!fits(n)) throw new InvalidArgumentError(`expected ${expected}`);
    return n;
  };
}

const above0 = (n: number): boolean => Number.isFinite(n) && n > 0;
const whole = (n: number): boolean => Number.isInteger(n) && n > 0;

/** A timeout option's value: a positive number of milliseconds. */
export const positiveInt = number(above0, "a positive number of milliseconds");

/** A port option's value: an integer 0-65535 (0: a free one). */
export const portNumber = number((n) => Number.isInteger(n) && n >= 0 && n <= 65535, "a port number (0-65535)");

/** A number of minutes above 0. */
export const minutes = number(above0, "a number of minutes above 0");

/** A whole number above 0. */
export const wholeNumber = number(whole, "a whole number above 0");

/** A whole number above 0, as `mcp registry search --limit` says it. */
export const positiveWhole = number(whole, "a positive whole number");

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

/** A repeatable option's values, each occurrence whole. */
export function repeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
