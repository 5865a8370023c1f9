// describeRegistryConfig: what an entry made from the registry runs and what the user must still do
// (moved from the CLI's `mcp registry add | update`, whose end-to-end tests stay in apps/cli/test).
import { registryExamples as ex } from "mcp-test-utils";
import { describe, expect, it } from "vitest";
import { configFromRegistry, describeRegistryConfig, type RegistryServer } from "../src/index.js";

const doc = (server: object): RegistryServer => server as RegistryServer;

describe("describeRegistryConfig", () => {
  it("the command, its environment, and the variables to set before it starts (required first)", () => {
    expect(describeRegistryConfig(configFromRegistry(doc(ex.weather)))).toEqual([
      "  runs  uvx weather-mcp-server==0.5.0",
      "  env   WEATHER_API_KEY=${WEATHER_API_KEY}",
      "  env   WEATHER_UNITS=celsius",
      "  Set in the environment before it starts:",
      "    WEATHER_API_KEY  required, secret  environment variable WEATHER_API_KEY  — API key for weather service",
    ]);
  });

  it("a remote's headers; the entry as written when given (a value whose name looks like a credential's is not shown)", () => {
    const made = configFromRegistry(doc(ex.remoteWeather), { name: "wx" });
    expect(describeRegistryConfig(made, { indent: "" })).toEqual([
      "runs  http https://api.example.com/mcp",
      "header Authorization: ${WX_AUTHORIZATION}",
      "Set in the environment before it starts:",
      "  WX_AUTHORIZATION  required, secret  header Authorization",
    ]);
    const written = { ...made.config, headers: { Authorization: "Bearer abc123", "X-Region": "eu" } };
    expect(describeRegistryConfig(made, { config: written, indent: "" }).slice(0, 3)).toEqual([
      "runs  http https://api.example.com/mcp",
      "header Authorization: <redacted>",
      "header X-Region: eu",
    ]);
  });

  it("a package that serves HTTP says how to start it; optional inputs left out are listed with their description and choices", () => {
    const made = configFromRegistry(
      doc({
        name: "io.github.example/configurable-server",
        description: "Local MCP server with configurable port",
        version: "1.0.0",
        packages: [
          {
            registryType: "npm",
            identifier: "@example/mcp-server",
            version: "1.0.0",
            transport: { type: "streamable-http", url: "http://localhost:{--port}/mcp" },
            packageArguments: [{ type: "named", name: "--port", default: "3000" }],
            environmentVariables: [{ name: "LOG_LEVEL", description: "How much to log", choices: ["info", "debug"] }],
          },
        ],
      }),
    );
    const style = { label: (t: string) => `<${t}>`, warning: (t: string) => `!${t}!`, name: (t: string) => `*${t}*` };
    expect(describeRegistryConfig(made, { style })).toEqual([
      "  <runs>  http http://localhost:3000/mcp",
      "  !It serves HTTP: mcp connects to it but does not start it. Start it with:! npx -y @example/mcp-server@1.0.0 --port 3000",
      "  Left out (optional; give one with --set <name>=<value>, a secret as a ${NAME} reference in the file):",
      "    *LOG_LEVEL*  optional  environment variable LOG_LEVEL  — How much to log  (one of info, debug)",
    ]);
  });

  it("registry text is escaped: a control character in a description cannot reach the terminal", () => {
    const made = configFromRegistry(
      doc({
        ...ex.braveSearch,
        packages: [
          {
            ...ex.braveSearch.packages[0],
            environmentVariables: [
              { name: "BRAVE_API_KEY", isRequired: true, isSecret: true, description: "key\u001b[2J here" },
            ],
          },
        ],
      }),
    );
    const lines = describeRegistryConfig(made);
    expect(lines.join("\n")).not.toContain("\u001b");
    expect(lines.at(-1)).toContain("— key");
  });
});
