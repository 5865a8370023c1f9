/**
 * MCP shapes the client works with (the 2025-11-25 schema, reduced to what callers touch). Every
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

/** Optional annotations on content (audience, priority, last modified). */
export interface Annotations {
  audience?: ("user" | "assistant")[] | undefined;
  priority?: number | undefined;
  lastModified?: string | undefined;
  [key: string]: unknown;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

export interface ImageContent {
  type: "image";
  /** Base64-encoded image data. */
  data: string;
  mimeType: string;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

export interface AudioContent {
  type: "audio";
  /** Base64-encoded audio data. */
  data: string;
  mimeType: string;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/** A link to a resource the client may read with `readResource`. */
export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  size?: number | undefined;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/** The contents of one resource: text or base64 `blob`. */
export type ResourceContents =
  | { uri: string; mimeType?: string | undefined; text: string; _meta?: Record<string, unknown> | undefined }
  | { uri: string; mimeType?: string | undefined; blob: string; _meta?: Record<string, unknown> | undefined };

/** A resource embedded in the content itself. */
export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/**
 * One block of content, discriminated by `type`: `if (block.type === "text") block.text` compiles.
 * (A type from a newer revision still arrives at runtime as the server sent it.)
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

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
  contents: ResourceContents[];
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
  requestedSchema?:
    | {
        type: "object";
        properties: Record<string, { type?: string; default?: unknown; [key: string]: unknown }>;
        required?: string[];
      }
    | undefined;
  [key: string]: unknown;
}

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}
