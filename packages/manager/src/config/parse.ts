// Reading config files: JSON, JSONC where the host allows it, and TOML, with errors that name the line and column.
import { readFile } from "node:fs/promises";
import { parse as parseJsonc, printParseErrorCode, type ParseError as JsoncError } from "jsonc-parser";
import { parse as parseToml, TomlError } from "smol-toml";

/** A file that exists but cannot be read as what it should be. */
export class ConfigSyntaxError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(
      line === undefined
        ? `${file}: ${message}`
        : `${file}:${line}${column === undefined ? "" : `:${column}`}: ${message}`,
    );
    this.name = "ConfigSyntaxError";
  }
}

/** Reads a file's text, or `undefined` when it does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new ConfigSyntaxError(file, `cannot be read: ${(error as Error).message}`);
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * Parses JSON — and JSONC (comments, trailing commas) where the host allows it — with errors that
 * name the line and column. `strict` refuses comments and trailing commas (plain JSON files).
 */
export function parseJsonFile(file: string, text: string, strict = false): unknown {
  const errors: JsoncError[] = [];
  const value: unknown = parseJsonc(text, errors, {
    allowTrailingComma: !strict,
    disallowComments: strict,
    allowEmptyContent: true,
  });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    throw new ConfigSyntaxError(file, `invalid JSON (${printParseErrorCode(first.error)})`, line, column);
  }
  return value ?? {};
}

/** Parses TOML with errors that name the line and column. */
export function parseTomlFile(file: string, text: string): unknown {
  try {
    return parseToml(text);
  } catch (error) {
    if (error instanceof TomlError)
      throw new ConfigSyntaxError(
        file,
        `invalid TOML (${error.message.split("\n")[0] ?? "syntax error"})`,
        error.line,
        error.column,
      );
    throw new ConfigSyntaxError(file, `invalid TOML (${(error as Error).message})`);
  }
}

/**
 * One top-level field of one of our own config files (`mcp-client.json`; comments and trailing
 * commas allowed): its value, or `undefined` when the file does not exist or has no such field.
 * For packages above the manager that keep a setting in the user's file (`@mcp/registry` reads
 * `registry`); the file's path is `join(userConfigDir(…), OWN_FILE)`. A file that cannot be read
 * or is not JSON throws an `Error` whose message names the file (and the line and column).
 */
export async function readConfigField(file: string, field: string): Promise<unknown> {
  const text = await readIfExists(file);
  if (text === undefined) return undefined;
  const document = parseJsonFile(file, text);
  if (typeof document !== "object" || document === null || Array.isArray(document)) return undefined;
  return Object.hasOwn(document, field) ? (document as Record<string, unknown>)[field] : undefined;
}
