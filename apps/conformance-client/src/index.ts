#!/usr/bin/env node
// A client built on @mcp/client for the official MCP conformance suite. The suite appends the
// server URL as the last argument and names the scenario in MCP_CONFORMANCE_SCENARIO.
//   node apps/conformance-client/dist/index.js <server-url>
import {
  callTool,
  connectToServer,
  disconnectServer,
  getPrompt,
  listPrompts,
  listResources,
  listTools,
  readResource,
  type ConnectOptions,
  type MCPServerConnection,
  type Tool,
} from "@mcp/client";
import { listSkills, loadSkill, SkillVerificationError } from "@mcp/client/skills";
import { followRedirectAuthorize, OAuthProvider } from "@mcp/oauth";

const url = process.argv.at(-1);
const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "initialize";
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: conformance-client <server-url>   (scenario from MCP_CONFORMANCE_SCENARIO)");
  process.exit(2);
}

const options: ConnectOptions = {
  clientInfo: { name: "mcp-client-stack-conformance", version: "0.1.0" },
  // SEP-1034: accept with nothing filled in; the client applies the schema's defaults. (MRTR
  // input requests of 2026-07-28 reach the same handler.)
  onElicitation: () => Promise.resolve({ action: "accept", content: { confirmed: true } }),
  onError: (error) => console.error(`[${scenario}] transport: ${error.message}`),
};

/** Extra data some scenarios pass (e.g. the tool calls to make). */
const context = JSON.parse(process.env["MCP_CONFORMANCE_CONTEXT"] ?? "{}") as {
  toolCalls?: { name: string; arguments?: Record<string, unknown> }[];
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  valid_jwt?: string;
};

/** Plausible arguments for a tool: its required properties, filled by type. */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  for (const key of tool.inputSchema.required ?? []) {
    const type = properties[key]?.type;
    args[key] =
      type === "integer" || type === "number"
        ? 1
        : type === "boolean"
          ? true
          : type === "array"
            ? []
            : type === "object"
              ? {}
              : "value";
  }
  return args;
}

/** What each scenario asks of a client, beyond the handshake itself. */
const scenarios: Record<string, (connection: MCPServerConnection) => Promise<void>> = {
  initialize: async (connection) => {
    await listTools(connection);
  },
  tools_call: async (connection) => {
    await listTools(connection);
    const result = await callTool(connection, "add_numbers", { a: 5, b: 3 });
    console.log(JSON.stringify(result));
  },
  "elicitation-sep1034-client-defaults": async (connection) => {
    await listTools(connection);
    const result = await callTool(connection, "test_client_elicitation_defaults", {});
    console.log(JSON.stringify(result));
  },
  "request-metadata": async (connection) => {
    const tools = await listTools(connection);
    if (tools[0]) await callTool(connection, tools[0].name, argumentsFor(tools[0]));
  },
  "sep-2322-client-request-state": async (connection) => {
    await listTools(connection);
    // In parallel: each retry carries only its own request's state.
    await Promise.all([callTool(connection, "test_mrtr_echo_state"), callTool(connection, "test_mrtr_unrelated")]);
    await callTool(connection, "test_mrtr_no_state");
    await callTool(connection, "test_mrtr_no_result_type");
  },
  "http-standard-headers": async (connection) => {
    const tools = await listTools(connection);
    if (tools[0]) await callTool(connection, tools[0].name, argumentsFor(tools[0]));
    const resources = await listResources(connection);
    if (resources[0]) await readResource(connection, resources[0].uri);
    const prompts = await listPrompts(connection);
    if (prompts[0])
      await getPrompt(
        connection,
        prompts[0].name,
        Object.fromEntries((prompts[0].arguments ?? []).filter((a) => a.required).map((a) => [a.name, "value"])),
      );
  },
  "http-custom-headers": async (connection) => {
    await listTools(connection);
    for (const call of context.toolCalls ?? []) await callTool(connection, call.name, call.arguments ?? {});
  },
  "http-invalid-tool-headers": async (connection) => {
    // Tools with invalid x-mcp-header annotations are dropped by listTools; call what remains.
    for (const tool of await listTools(connection)) await callTool(connection, tool.name, argumentsFor(tool));
  },
  "json-schema-2020-12-preservation": async (connection) => {
    // Tool schemas are kept as the server sent them: the focal tool's goes back verbatim.
    const tools = await listTools(connection);
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (focal) await callTool(connection, "json_schema_echo", { schema: focal.inputSchema });
  },
  "json-schema-ref-no-deref": async (connection) => {
    await listTools(connection);
  },
  // Skills (SEP-2640): listing fetches no file; loading verifies the SKILL.md before anything
  // else of the skill is read.
  "sep-2640-client-no-prefetch": async (connection) => {
    console.log(JSON.stringify(await listSkills(connection)));
  },
  "sep-2640-client-verify": async (connection) => {
    for (const entry of await listSkills(connection)) {
      try {
        const skill = await loadSkill(connection, entry);
        for (const file of entry.resources ?? []) if (file.uri !== entry.uri) await skill.readFile(file.uri);
      } catch (error) {
        if (!SkillVerificationError.isInstance(error)) throw error;
        console.error(`[${scenario}] refused: ${error.message}`);
      }
    }
  },
  "sse-retry": async (connection) => {
    await listTools(connection);
    const result = await callTool(connection, "test_reconnection", {}, { timeout: 10_000 });
    console.log(JSON.stringify(result));
  },
};

/**
 * The auth scenarios: @mcp/oauth with a user step that follows the test server's immediate
 * redirect (no browser). Credentials, when a scenario has them, come in the context.
 */
function authProviderFor(serverUrl: string): OAuthProvider | undefined {
  if (!scenario.startsWith("auth/")) return undefined;
  const machine = scenario.startsWith("auth/client-credentials");
  const enterprise =
    context.idp_id_token !== undefined &&
    context.idp_token_endpoint !== undefined &&
    context.idp_client_id !== undefined;
  const workload = context.valid_jwt !== undefined;
  return new OAuthProvider({
    serverUrl,
    grant: machine
      ? "client_credentials"
      : enterprise
        ? "enterprise"
        : workload
          ? "workload_identity"
          : "authorization_code",
    enterprise: enterprise
      ? { idToken: context.idp_id_token!, tokenEndpoint: context.idp_token_endpoint!, clientId: context.idp_client_id! }
      : undefined,
    workloadIdentity: workload ? { token: context.valid_jwt! } : undefined,
    redirectUri: "http://127.0.0.1:3999/callback",
    authorize: followRedirectAuthorize(),
    clientId: context.client_id,
    clientSecret: context.client_secret,
    clientAssertionKey: context.private_key_pem
      ? { privateKeyPem: context.private_key_pem, algorithm: context.signing_algorithm === "RS256" ? "RS256" : "ES256" }
      : undefined,
    // The suite's Client ID Metadata Document URL (its authorization server does not fetch it).
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    clientName: "mcp-client-stack-conformance",
  });
}

for (const check of ["digest", "size", "frontmatter"])
  scenarios[`sep-2640-client-verify-${check}`] = scenarios["sep-2640-client-verify"]!;

if (scenario.startsWith("auth/")) {
  scenarios[scenario] = async (connection) => {
    for (const tool of await listTools(connection)) await callTool(connection, tool.name, argumentsFor(tool));
  };
}

const connection = await connectToServer(
  `conformance:${scenario}`,
  { type: "http", url, timeout: 15_000, authProvider: authProviderFor(url) },
  options,
);
try {
  await (scenarios[scenario] ?? scenarios["initialize"]!)(connection);
} finally {
  await disconnectServer(connection);
}
