import { isValidTimeout } from "@mcp/jsonrpc";

const TYPES = ["stdio", "http", "sse"];

function isStringMap(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}

/**
 * Every problem with one server config, as sentences; empty when it is valid. Checks `command`
 * xor `url`, a known `type`, the URL, and the shapes of `args`, `env`, `headers` and `timeout`.
 */
export function validateServerConfig(name: string, config: unknown): string[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return [`server "${name}": the entry must be an object`];
  const c = config as Record<string, unknown>;
  const problems: string[] = [];
  const type = c["type"] ?? "stdio";
  if (typeof type !== "string" || !TYPES.includes(type)) {
    problems.push(`unknown server type ${JSON.stringify(c["type"])}; expected "stdio", "http" or "sse"`);
    return problems;
  }
  const hasCommand = c["command"] !== undefined;
  const hasUrl = c["url"] !== undefined;
  if (hasCommand && hasUrl) problems.push('both "command" and "url" are set; a server has one or the other');
  if (type === "stdio") {
    if (!hasCommand) problems.push(hasUrl ? 'stdio server requires "command" field (it has a "url": set "type" to "http" or "sse")' : 'stdio server requires "command" field');
    else if (typeof c["command"] !== "string" || c["command"].trim() === "") problems.push('"command" must be a non-empty string');
    if (c["args"] !== undefined && !(Array.isArray(c["args"]) && c["args"].every((a) => typeof a === "string"))) problems.push('"args" must be an array of strings');
    if (c["env"] !== undefined && !isStringMap(c["env"])) problems.push('"env" must map names to strings');
    if (c["cwd"] !== undefined && typeof c["cwd"] !== "string") problems.push('"cwd" must be a string');
  } else {
    if (!hasUrl) problems.push(`${type} server requires "url" field`);
    else if (typeof c["url"] !== "string") problems.push('"url" must be a string');
    else {
      let url: URL | undefined;
      try {
        url = new URL(c["url"]);
      } catch {
        problems.push(`"url" is not a valid URL: ${JSON.stringify(c["url"])}`);
      }
      if (url && url.protocol !== "http:" && url.protocol !== "https:") problems.push(`"url" must be http or https, got ${url.protocol}`);
    }
    if (c["headers"] !== undefined && !isStringMap(c["headers"])) problems.push('"headers" must map names to strings');
  }
  if (c["timeout"] !== undefined && !isValidTimeout(c["timeout"])) problems.push(`"timeout" must be a positive number of milliseconds; got ${JSON.stringify(c["timeout"])}`);
  return problems;
}
