// What an entry made from the registry runs and what the user must still do, as lines a person reads.
import type { MCPServerConfig } from "@mcp/client";
import { commandLine, describeServer, printable, shownWhole } from "@mcp/manager";
import type { RegistryConfig } from "./config.js";
import type { RegistryVariable } from "./inputs.js";

/** How {@link describeRegistryConfig} marks its parts (each plain when not given), e.g. a terminal's colors. */
export interface DescribeStyle {
  /** A line's label: `runs`, `env`, `header`. */
  label?: (text: string) => string;
  /** The note that an HTTP package is not started by us. */
  warning?: (text: string) => string;
  /** A variable's name. */
  name?: (text: string) => string;
}

/** Options of {@link describeRegistryConfig}. */
export interface DescribeOptions {
  /** The entry as written, when it is not `made.config` (an update keeps the user's own values). */
  config?: MCPServerConfig | undefined;
  /** Before every line (default two spaces). */
  indent?: string | undefined;
  style?: DescribeStyle | undefined;
}

const plain = (text: string): string => text;

/** An environment value or header for a person: a `${NAME}` reference, or the value unless its name looks like a credential's. */
function shownValue(name: string, value: string): string {
  return /^\$\{[^}]+\}$/.test(value) || shownWhole(name) ? printable(value) : "<redacted>";
}

/**
 * What an entry from {@link configFromRegistry} runs and what the user must still do: its command or
 * URL, its environment and headers (a value whose name looks like a credential's as `<redacted>`),
 * the command that starts a package serving HTTP, the variables to set before it starts (required
 * first) and the optional inputs left out. Registry text is escaped ({@link printable}).
 *
 * @example
 * const made = configFromRegistry(entry);
 * console.log(describeRegistryConfig(made).join("\n"));
 * //   runs  npx -y @modelcontextprotocol/server-brave-search@1.0.2
 * //   env   BRAVE_API_KEY=${BRAVE_API_KEY}
 * //   Set in the environment before it starts:
 * //     BRAVE_API_KEY  required, secret  environment variable BRAVE_API_KEY  — Your API key
 */
export function describeRegistryConfig(made: RegistryConfig, options: DescribeOptions = {}): string[] {
  const { indent = "  ", config = made.config } = options;
  const label = options.style?.label ?? plain;
  const bold = options.style?.name ?? plain;
  const warning = options.style?.warning ?? plain;
  const lines = [`${indent}${label("runs")}  ${describeServer({ config }).runs}`];
  const c = config as MCPServerConfig & { env?: Record<string, string>; headers?: Record<string, string> };
  for (const [name, value] of Object.entries(c.env ?? {}))
    lines.push(`${indent}${label("env")}   ${printable(name)}=${shownValue(name, value)}`);
  for (const [name, value] of Object.entries(c.headers ?? {}))
    lines.push(`${indent}${label("header")} ${printable(name)}: ${shownValue(name, value)}`);
  if (made.start)
    lines.push(
      `${indent}${warning("It serves HTTP: mcp connects to it but does not start it. Start it with:")} ${commandLine(made.start.command, made.start.args)}`,
    );
  const about = (v: RegistryVariable): string =>
    [
      `${indent}  ${bold(v.name)}`,
      `${v.required ? "required" : "optional"}${v.secret ? ", secret" : ""}`,
      printable(v.input),
      v.description ? `— ${printable(v.description)}` : "",
      v.default !== undefined ? `(default ${printable(v.default)})` : "",
      v.choices?.length ? `(one of ${printable(v.choices.join(", "))})` : "",
    ]
      .filter(Boolean)
      .join("  ");
  const set = made.variables.filter((v) => v.inEntry);
  const left = made.variables.filter((v) => !v.inEntry);
  if (set.length > 0) lines.push(`${indent}Set in the environment before it starts:`, ...set.map(about));
  if (left.length > 0)
    lines.push(
      `${indent}Left out (optional; give one with --set <name>=<value>, a secret as a \${NAME} reference in the file):`,
      ...left.map(about),
    );
  return lines;
}
