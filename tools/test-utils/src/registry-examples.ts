// Real server.json documents from the MCP registry's own repository (github.com/modelcontextprotocol/registry),
// for the stand-in registry of the tests. Copied as published (JSON written as TypeScript), from:
//   - docs/reference/server-json/generic-server-json.md at commit 5c1f63af612017820cdc247ae9fc2671f9b6bfa1
//     ("Examples": brave-search, everything, knapcode-samplemcpserver 0.4.0-beta and 0.5.0, filesystem,
//     mcp-fs, weather-mcp, database-manager, hybrid-mcp, text-editor, snyk cli-mcp, embedded-mcp);
//   - docs/reference/server-json/examples/valid/with-package.json and with-remote.json at commit
//     419f3c5defaafaf958a36caa987f7b8922f742ce (local-weather, remote-weather: a URL variable and a secret header).
// One change, marked below: the "everything" example names the real package this repository installs
// (@modelcontextprotocol/server-everything, at its installed version) so a test can run what it adds.
// The registry's status of each entry (the `_meta` it adds) is the test's own choice.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const everythingDist = dirname(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js"),
);

/** The installed @modelcontextprotocol/server-everything's version (the one in the lockfile). */
export const everythingVersion: string = (
  JSON.parse(readFileSync(join(dirname(everythingDist), "package.json"), "utf8")) as { version: string }
).version;

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json";
const SCHEMA_2025_12_11 = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

export const braveSearch = {
  $schema: SCHEMA,
  name: "io.modelcontextprotocol.anonymous/brave-search",
  description: "MCP server for Brave Search API integration",
  title: "Brave Search",
  websiteUrl: "https://anonymous.modelcontextprotocol.io/examples",
  repository: { url: "https://github.com/modelcontextprotocol/servers", source: "github" },
  version: "1.0.2",
  packages: [
    {
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: "@modelcontextprotocol/server-brave-search",
      version: "1.0.2",
      transport: { type: "stdio" },
      environmentVariables: [
        { name: "BRAVE_API_KEY", description: "Brave Search API Key", isRequired: true, isSecret: true },
      ],
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "npm-publisher",
      version: "1.0.1",
      build_info: { timestamp: "2023-12-01T10:30:00Z" },
    },
  },
};

export const everything = {
  $schema: SCHEMA,
  name: "io.modelcontextprotocol/everything",
  description: "MCP server that exercises all the features of the MCP protocol",
  title: "Everything",
  repository: { url: "https://github.com/modelcontextprotocol/servers", source: "github", subfolder: "src/everything" },
  // Changed: the example's version (0.6.2) and identifier (@modelcontextprotocol/everything) name the
  // package installed here, so that what the tests add can run offline.
  version: everythingVersion,
  packages: [
    {
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: "@modelcontextprotocol/server-everything",
      version: everythingVersion,
      transport: { type: "stdio" },
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "npm-publisher",
      version: "1.0.1",
      build_info: { timestamp: "2023-12-01T10:30:00Z" },
    },
  },
};

export const knapcodeOld = {
  $schema: SCHEMA,
  name: "io.github.joelverhagen/knapcode-samplemcpserver",
  description: "Sample NuGet MCP server for a random number and random weather",
  version: "0.4.0-beta",
  packages: [
    {
      registryType: "nuget",
      registryBaseUrl: "https://api.nuget.org",
      identifier: "Knapcode.SampleMcpServer",
      version: "0.4.0-beta",
      transport: { type: "stdio" },
      packageArguments: [
        { type: "positional", value: "mcp" },
        { type: "positional", value: "start" },
      ],
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "nuget-publisher",
      version: "2.1.0",
      build_info: { timestamp: "2023-11-15T14:22:00Z", pipeline_id: "nuget-build-456" },
    },
  },
};

export const knapcode = {
  $schema: SCHEMA,
  name: "io.github.joelverhagen/knapcode-samplemcpserver",
  description: "Sample NuGet MCP server for a random number and random weather",
  repository: {
    url: "https://github.com/joelverhagen/Knapcode.SampleMcpServer",
    source: "github",
    id: "example-nuget-id-0000-1111-222222222222",
  },
  version: "0.5.0",
  packages: [
    {
      registryType: "nuget",
      registryBaseUrl: "https://api.nuget.org",
      identifier: "Knapcode.SampleMcpServer",
      version: "0.5.0",
      runtimeHint: "dnx",
      transport: { type: "stdio" },
      environmentVariables: [
        {
          name: "WEATHER_CHOICES",
          description: "Comma separated list of weather descriptions to randomly select.",
          isRequired: true,
          isSecret: false,
        },
      ],
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "dotnet-publisher",
      version: "8.0.100",
      build_info: {
        dotnet_version: "8.0.0",
        timestamp: "2023-12-10T12:15:00Z",
        configuration: "Release",
        target_framework: "net8.0",
        build_number: "20231210.1",
      },
    },
  },
};

export const filesystem = {
  $schema: SCHEMA,
  name: "io.github.modelcontextprotocol/filesystem",
  description: "Node.js server implementing Model Context Protocol (MCP) for filesystem operations.",
  title: "Filesystem",
  repository: {
    url: "https://github.com/modelcontextprotocol/servers",
    source: "github",
    id: "b94b5f7e-c7c6-d760-2c78-a5e9b8a5b8c9",
  },
  version: "1.0.2",
  packages: [
    {
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: "@modelcontextprotocol/server-filesystem",
      version: "1.0.2",
      transport: { type: "stdio" },
      packageArguments: [
        {
          type: "positional",
          valueHint: "target_dir",
          description: "Path to access",
          default: "/Users/username/Desktop",
          isRequired: true,
          isRepeated: true,
        },
      ],
      environmentVariables: [
        { name: "LOG_LEVEL", description: "Logging level (debug, info, warn, error)", default: "info" },
      ],
    },
    {
      registryType: "oci",
      identifier: "docker.io/mcp/filesystem:1.0.2",
      transport: { type: "stdio" },
      runtimeArguments: [
        {
          type: "named",
          description: "Mount a volume into the container",
          name: "--mount",
          value: "type=bind,src={source_path},dst={target_path}",
          isRequired: true,
          isRepeated: true,
          variables: {
            source_path: { description: "Source path on host", format: "filepath", isRequired: true },
            target_path: {
              description: "Path to mount in the container. It should be rooted in `/project` directory.",
              isRequired: true,
              default: "/project",
            },
          },
        },
      ],
      packageArguments: [{ type: "positional", valueHint: "target_dir", value: "/project" }],
      environmentVariables: [
        { name: "LOG_LEVEL", description: "Logging level (debug, info, warn, error)", default: "info" },
      ],
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "ci-publisher",
      version: "3.2.1",
      build_info: {
        commit: "a1b2c3d4e5f6789",
        timestamp: "2023-12-01T10:30:00Z",
        pipeline_id: "filesystem-build-789",
        environment: "production",
      },
    },
  },
};

export const mcpFs = {
  $schema: SCHEMA,
  name: "io.modelcontextprotocol.anonymous/mcp-fs",
  description: "Cloud-hosted MCP filesystem server",
  repository: {
    url: "https://github.com/example/remote-fs",
    source: "github",
    id: "xyz789ab-cdef-0123-4567-890ghijklmno",
  },
  version: "2.0.0",
  remotes: [{ type: "streamable-http", url: "https://mcp-fs.anonymous.modelcontextprotocol.io/http" }],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "cloud-deployer",
      version: "2.4.0",
      build_info: {
        commit: "f7e8d9c2b1a0",
        timestamp: "2023-12-05T08:45:00Z",
        deployment_id: "remote-fs-deploy-456",
        region: "us-west-2",
      },
    },
  },
};

export const weather = {
  $schema: SCHEMA,
  name: "io.github.example/weather-mcp",
  description: "Python MCP server for weather data access",
  title: "Weather",
  repository: {
    url: "https://github.com/example/weather-mcp",
    source: "github",
    id: "def456gh-ijkl-7890-mnop-qrstuvwxyz12",
  },
  version: "0.5.0",
  packages: [
    {
      registryType: "pypi",
      registryBaseUrl: "https://pypi.org",
      identifier: "weather-mcp-server",
      version: "0.5.0",
      runtimeHint: "uvx",
      transport: { type: "stdio" },
      environmentVariables: [
        { name: "WEATHER_API_KEY", description: "API key for weather service", isRequired: true, isSecret: true },
        { name: "WEATHER_UNITS", description: "Temperature units (celsius, fahrenheit)", default: "celsius" },
      ],
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "poetry-publisher",
      version: "1.8.3",
      build_info: {
        python_version: "3.11.5",
        timestamp: "2023-11-28T16:20:00Z",
        build_id: "pypi-weather-123",
        dependencies_hash: "sha256:a9b8c7d6e5f4",
      },
    },
  },
};

export const databaseManager = {
  $schema: SCHEMA,
  name: "io.github.example/database-manager",
  description: "MCP server for database operations with support for multiple database types",
  repository: {
    url: "https://github.com/example/database-manager-mcp",
    source: "github",
    id: "ghi789jk-lmno-1234-pqrs-tuvwxyz56789",
  },
  version: "3.1.0",
  packages: [
    {
      registryType: "oci",
      identifier: "docker.io/example/database-manager-mcp:3.1.0",
      transport: { type: "stdio" },
      runtimeArguments: [
        { type: "named", name: "--network", value: "host", description: "Use host network mode" },
        {
          type: "named",
          name: "-e",
          value: "DB_TYPE={db_type}",
          description: "Database type to connect to",
          isRepeated: true,
          variables: {
            db_type: {
              description: "Type of database",
              choices: ["postgres", "mysql", "mongodb", "redis"],
              isRequired: true,
            },
          },
        },
      ],
      packageArguments: [
        { type: "named", name: "--host", description: "Database host", default: "localhost", isRequired: true },
        { type: "named", name: "--port", description: "Database port", format: "number" },
        {
          type: "positional",
          valueHint: "database_name",
          description: "Name of the database to connect to",
          isRequired: true,
        },
      ],
      environmentVariables: [
        { name: "DB_USERNAME", description: "Database username", isRequired: true },
        { name: "DB_PASSWORD", description: "Database password", isRequired: true, isSecret: true },
        {
          name: "SSL_MODE",
          description: "SSL connection mode",
          default: "prefer",
          choices: ["disable", "prefer", "require"],
        },
      ],
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "docker-buildx",
      version: "0.12.1",
      build_info: {
        docker_version: "24.0.7",
        timestamp: "2023-12-08T14:30:00Z",
        platform: "linux/amd64,linux/arm64",
        registry: "docker.io",
        image_digest: "sha256:1a2b3c4d5e6f7890",
      },
    },
  },
};

export const hybrid = {
  $schema: SCHEMA,
  name: "io.modelcontextprotocol.anonymous/hybrid-mcp",
  description: "MCP server available as both local package and remote service",
  title: "Hybrid",
  repository: {
    url: "https://github.com/example/hybrid-mcp",
    source: "github",
    id: "klm012no-pqrs-3456-tuvw-xyz789abcdef",
  },
  version: "1.5.0",
  packages: [
    {
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: "@example/hybrid-mcp-server",
      version: "1.5.0",
      runtimeHint: "npx",
      transport: { type: "stdio" },
      packageArguments: [
        {
          type: "named",
          name: "--mode",
          description: "Operation mode",
          default: "local",
          choices: ["local", "cached", "proxy"],
        },
      ],
    },
  ],
  remotes: [
    {
      type: "streamable-http",
      url: "https://mcp.anonymous.modelcontextprotocol.io/http",
      headers: [
        { name: "X-API-Key", description: "API key for authentication", isRequired: true, isSecret: true },
        {
          name: "X-Region",
          description: "Service region",
          default: "us-east-1",
          choices: ["us-east-1", "eu-west-1", "ap-southeast-1"],
        },
      ],
    },
    { type: "sse", url: "https://mcp.anonymous.modelcontextprotocol.io/sse" },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "hybrid-deployer",
      version: "1.7.2",
      build_info: {
        timestamp: "2023-12-03T11:00:00Z",
        deployment_strategy: "blue-green",
        npm_version: "10.2.4",
        node_version: "20.10.0",
        service_endpoints: { sse: "deployed", streamable: "deployed" },
      },
    },
  },
};

export const textEditor = {
  $schema: SCHEMA,
  name: "io.modelcontextprotocol/text-editor",
  description: "MCP Bundle server for advanced text editing capabilities",
  title: "Text Editor",
  repository: { url: "https://github.com/modelcontextprotocol/text-editor-mcpb", source: "github" },
  version: "1.0.2",
  packages: [
    {
      registryType: "mcpb",
      identifier: "https://github.com/modelcontextprotocol/text-editor-mcpb/releases/download/v1.0.2/text-editor.mcpb",
      fileSha256: "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
      transport: { type: "stdio" },
    },
  ],
  _meta: {
    "io.modelcontextprotocol.registry/publisher-provided": {
      tool: "mcpb-publisher",
      version: "1.0.0",
      build_info: { timestamp: "2023-12-02T09:15:00Z", bundle_format: "mcpb-v1" },
    },
  },
};

export const snyk = {
  $schema: SCHEMA,
  name: "io.snyk/cli-mcp",
  description: "MCP server provided by the Snyk CLI",
  title: "Snyk",
  version: "1.1298.0",
  packages: [
    {
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: "snyk",
      version: "1.1298.0",
      transport: { type: "stdio" },
      packageArguments: [
        { type: "positional", value: "mcp" },
        {
          type: "named",
          name: "-t",
          description: "Transport type for MCP server",
          default: "stdio",
          choices: ["stdio", "sse"],
        },
      ],
    },
  ],
};

export const embedded = {
  $schema: SCHEMA,
  name: "io.modelcontextprotocol.anonymous/embedded-mcp",
  description: "MCP server embedded in a Desktop app",
  websiteUrl: "https://anonymous.modelcontextprotocol.io/embedded-mcp-guide",
  version: "0.1.0",
};

export const localWeather = {
  $schema: SCHEMA_2025_12_11,
  name: "io.github.user/local-weather",
  description: "Local MCP server distributed as an npm package.",
  version: "1.0.0",
  packages: [
    {
      registryType: "npm",
      identifier: "@modelcontextprotocol/server-weather",
      version: "1.0.0",
      transport: { type: "stdio" },
      runtimeHint: "npx",
      packageArguments: [
        { type: "positional", valueHint: "config_path" },
        { type: "named", name: "--port", value: "8080" },
      ],
      environmentVariables: [{ name: "API_KEY", isSecret: true, isRequired: true }],
    },
  ],
};

export const remoteWeather = {
  $schema: SCHEMA_2025_12_11,
  name: "io.github.user/remote-weather",
  description: "Remote MCP server reachable over streamable HTTP.",
  version: "2.1.0",
  title: "Remote Weather",
  websiteUrl: "https://modelcontextprotocol.io/examples",
  repository: { url: "https://github.com/modelcontextprotocol/servers", source: "github", subfolder: "src/weather" },
  icons: [{ src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48", "96x96"] }],
  remotes: [
    {
      type: "streamable-http",
      url: "https://{host}/mcp",
      headers: [{ name: "Authorization", isSecret: true, isRequired: true }],
      variables: { host: { description: "API host", default: "api.example.com" } },
    },
  ],
};

/** What the stand-in registry serves by default, oldest first; `mcp-fs` is deprecated and `embedded-mcp` deleted. */
export const REGISTRY_EXAMPLES: { server: Record<string, unknown>; status?: "active" | "deprecated" | "deleted" }[] = [
  { server: braveSearch },
  { server: everything },
  { server: knapcodeOld },
  { server: knapcode },
  { server: filesystem },
  { server: mcpFs, status: "deprecated" },
  { server: weather },
  { server: databaseManager },
  { server: hybrid },
  { server: textEditor },
  { server: snyk },
  { server: embedded, status: "deleted" },
  { server: localWeather },
  { server: remoteWeather },
];
