// A command line split into words as a POSIX shell would split it, with no shell involved: how a
// person gives a stdio server in one string (`--stdio "npx -y server --flag 'a b'"`); and whether
// a command is there to run at all.
import { existsSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/**
 * The words of a command line: spaces separate, single and double quotes group (`''` is an empty
 * word), `\` escapes the next character (inside double quotes too; nothing inside single quotes).
 * Nothing is expanded (no variables, globs or `~`) and nothing runs.
 *
 * @throws SyntaxError when a quote is not closed, naming the quote and the line.
 * @example
 * splitCommandLine(`npx -y server --name 'my server' ""`); // ["npx", "-y", "server", "--name", "my server", ""]
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === "\\" && i + 1 < line.length) {
      current += line[++i];
      started = true;
    } else if (/\s/.test(char)) {
      if (started || current) words.push(current);
      current = "";
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quote) throw new SyntaxError(`unterminated ${quote} quote in ${JSON.stringify(line)}`);
  if (started || current) words.push(current);
  return words;
}

/**
 * Whether a stdio server's command is there to run: a path (absolute, or with a `/`) that exists,
 * or a name found in a folder of `PATH` (on Windows with one of `PATHEXT`'s extensions). What a
 * host says when a server fails to start: "not installed or not on PATH" rather than the spawn error.
 *
 * @example
 * commandOnPath("node"); // true where Node is installed
 * commandOnPath("no-such-tool"); // false
 */
export function commandOnPath(
  command: string,
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (isAbsolute(command) || command.includes("/")) return existsSync(command);
  const extensions = platform === "win32" ? (env["PATHEXT"] ?? ".EXE;.CMD;.BAT").split(";") : [""];
  return (env["PATH"] ?? "")
    .split(delimiter)
    .some((dir) => extensions.some((ext) => existsSync(join(dir, command + ext))));
}
