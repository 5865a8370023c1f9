// Tool arguments from the command line (HTTPie style: @mcp/adapters/arguments' parseArguments,
// `@file` read from the command's folder), checked against the tool's schema.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type * as AdaptersModule from "@mcp/adapters";
import { ArgumentsError, parseArguments as parseWords } from "@mcp/adapters/arguments";
import { CliError, EXIT } from "./ui.js";
import { lazyImport } from "./lazy-require.js";

/** Tool arguments from the command line's words; words that make none are a usage error. */
export function parseArguments(words: string[], schema: object | undefined, cwd: string): Record<string, unknown> {
  try {
    return parseWords(words, schema, {
      readFile: (name) => {
        const file = resolve(cwd, name);
        try {
          return readFileSync(file, "utf8");
        } catch (error) {
          throw new Error(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
        }
      },
    });
  } catch (error) {
    if (error instanceof ArgumentsError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/**
 * Validates arguments against the tool's input schema; throws a usage error naming each bad field.
 * The check is `@mcp/adapters`' (one validator for the stack, which interprets the server's schema
 * and never compiles it to code), loaded when arguments are checked, not with the CLI: most
 * commands never check any.
 */
export async function validateArguments(
  toolLabel: string,
  args: Record<string, unknown>,
  schema: object | undefined,
): Promise<void> {
  if (!schema) return;
  const { argumentIssues } = await lazyImport<typeof AdaptersModule>("@mcp/adapters");
  const issues = argumentIssues(schema, args);
  if (issues.length === 0) return;
  throw new CliError(
    `invalid arguments for ${toolLabel}: ${issues.map((issue) => issue.message).join("; ")}`,
    EXIT.usage,
  );
}
