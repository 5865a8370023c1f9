// Every problem with one server config before anything starts, each with its field and what to do.
import { timeoutProblem } from "@mcp/jsonrpc/internal";
import { parseHttpUrl, parseProxyUrl } from "@mcp/transport-http";
import { stdioCommandProblems } from "@mcp/transport-stdio/config";
import { UnknownServerTypeError } from "./errors.js";

/** One thing wrong with a server config: the field and a sentence that says what to do. */
export interface ConfigProblem {
  /** The offending field (`""` for the entry as a whole). */
  field: string;
  message: string;
  /** Set when the problem is an unknown `type`: the value given. */
  unknownType?: unknown;
}

const TYPES = ["stdio", "http", "sse"];

function isStringMap(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}

/**
 * Every problem with one server config, before anything starts; empty when it is valid. Checks
 * `command` xor `url`, a known `type`, the URL, and the shapes of `args`, `env`, `parentEnv`, `cwd`, `headers`
 * and `timeout`. `connectToServer` throws the first; `@mcp/manager` reports them all.
 */
export function serverConfigProblems(config: unknown): ConfigProblem[] {
  if (typeof config !== "object" || config === null || Array.isArray(config))
    return [{ field: "", message: "the entry must be an object" }];
  const c = config as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  const hasCommand = c["command"] !== undefined;
  const hasUrl = c["url"] !== undefined;
  if (c["type"] === undefined && hasUrl && !hasCommand) {
    return [
      {
        field: "type",
        message:
          '"url" is set but "type" is not; add "type": "http" (Streamable HTTP) or "type": "sse" (HTTP+SSE, the 2024-11-05 transport)',
      },
    ];
  }
  const type = c["type"] ?? "stdio";
  if (typeof type !== "string" || !TYPES.includes(type)) {
    return [{ field: "type", message: new UnknownServerTypeError(c["type"]).message, unknownType: c["type"] }];
  }
  if (hasCommand && hasUrl)
    problems.push({
      field: type === "stdio" ? "url" : "command",
      message: 'both "command" and "url" are set; a server has one or the other',
    });
  if (type === "stdio") {
    problems.push(...stdioCommandProblems(c));
    if (c["env"] !== undefined && !isStringMap(c["env"]))
      problems.push({ field: "env", message: '"env" must map names to strings' });
    if (c["cwd"] !== undefined && typeof c["cwd"] !== "string")
      problems.push({ field: "cwd", message: '"cwd" must be a string' });
    if (c["parentEnv"] !== undefined && !isStringMap(c["parentEnv"]))
      problems.push({ field: "parentEnv", message: '"parentEnv" must map names to strings' });
  } else {
    if (!hasUrl) problems.push({ field: "url", message: `${type} server requires "url" field` });
    else {
      const url = parseHttpUrl(c["url"]);
      if (typeof url === "string") problems.push({ field: "url", message: url });
    }
    if (c["headers"] !== undefined && !isStringMap(c["headers"]))
      problems.push({ field: "headers", message: '"headers" must map names to strings' });
    if (c["proxy"] !== undefined && c["proxy"] !== false) {
      const proxy = parseProxyUrl(c["proxy"]);
      if (typeof proxy === "string") problems.push({ field: "proxy", message: proxy });
    }
    if (c["ca"] !== undefined && (typeof c["ca"] !== "string" || c["ca"] === ""))
      problems.push({ field: "ca", message: '"ca" must be the path of a PEM file' });
    if (
      c["headersHelper"] !== undefined &&
      (typeof c["headersHelper"] !== "string" || c["headersHelper"].trim() === "")
    )
      problems.push({
        field: "headersHelper",
        message: '"headersHelper" must be a command that prints a JSON object of headers',
      });
  }
  const timeout = timeoutProblem(c["timeout"], '"timeout"');
  if (timeout !== undefined) problems.push({ field: "timeout", message: timeout });
  return problems;
}
