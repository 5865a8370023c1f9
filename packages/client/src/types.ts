/**
 * MCP shapes the client works with (2025-11-25 schema, reduced to what callers touch). Every
 * object keeps unknown fields: what a newer server sends is passed through untouched.
 */

export interface Implementation {
  name: string;
  version: string;
  title?: string | undefined;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  logging?: object | undefined;
  completions?: object | undefined;
  prompts?: { listChanged?: boolean | undefined } | undefined;
  resources?: { subscribe?: boolean | undefined; listChanged?: boolean | undefined } | undefined;
  tools?: { listChanged?: boolean | undefined } | undefined;
  experimental?: Record<string, object> | undefined;
  [key: string]: unknown;
}

export interface ClientCapabilities {
  roots?: { listChanged?: boolean | undefined } | undefined;
  sampling?: object | undefined;
  elicitation?: object | undefined;
  experimental?: Record<string, object> | undefined;
  [key: string]: unknown;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string | undefined;
  [key: string]: unknown;
}

export interface Tool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { type: "object"; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  outputSchema?: { type: "object"; [key: string]: unknown } | undefined;
  annotations?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

export type ContentBlock = { type: string; [key: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown> | undefined;
  isError?: boolean | undefined;
  [key: string]: unknown;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  [key: string]: unknown;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  description?: string | undefined;
  mimeType?: string | undefined;
  [key: string]: unknown;
}

export interface ReadResourceResult {
  contents: ({ uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string })[];
  [key: string]: unknown;
}

export interface Prompt {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  arguments?: { name: string; description?: string; required?: boolean }[] | undefined;
  [key: string]: unknown;
}

export interface GetPromptResult {
  description?: string | undefined;
  messages: { role: "user" | "assistant"; content: ContentBlock }[];
  [key: string]: unknown;
}

export type CompleteRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface CompleteResult {
  completion: { values: string[]; total?: number | undefined; hasMore?: boolean | undefined };
  [key: string]: unknown;
}

export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

export interface LogMessage {
  level: LoggingLevel;
  logger?: string | undefined;
  data: unknown;
}

export interface Root {
  uri: string;
  name?: string | undefined;
}

export interface CreateMessageParams {
  messages: { role: "user" | "assistant"; content: ContentBlock | ContentBlock[] }[];
  maxTokens: number;
  systemPrompt?: string | undefined;
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: "assistant";
  content: ContentBlock;
  model: string;
  stopReason?: string | undefined;
  [key: string]: unknown;
}

export interface ElicitParams {
  message: string;
  mode?: "form" | "url" | undefined;
  requestedSchema?: { type: "object"; properties: Record<string, { type?: string; default?: unknown; [key: string]: unknown }>; required?: string[] } | undefined;
  [key: string]: unknown;
}

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}
