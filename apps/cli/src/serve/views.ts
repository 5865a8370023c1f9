// The gateway's views, from our own config file: `views` beside `servers` in the user's
// `mcp-client.json` (or the files given with --config, which then stand for it).

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseViews, type View } from "@mcp/gateway";
import { InvalidConfigError } from "@mcp/jsonrpc";
import { OWN_FILE } from "@mcp/manager";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { configDir } from "../session.js";

/** The views of our config file(s); an unreadable file has none, a malformed `views` is an error naming it. */
export async function readViews(home: string, files: readonly string[] | undefined): Promise<Map<string, View>> {
  const views = new Map<string, View>();
  for (const file of files?.length ? files : [join(configDir(home), OWN_FILE)]) {
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const errors: ParseError[] = [];
    const document = parse(text, errors, { allowTrailingComma: true }) as { views?: unknown } | undefined;
    if (errors.length > 0) throw new InvalidConfigError(`${file}: not JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset})`, { file });
    for (const [name, view] of parseViews(document?.views, file)) views.set(name, view);
  }
  return views;
}
