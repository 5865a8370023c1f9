// @mcp/inspector: a web inspector for an MCP manager, page and server. `startInspector(manager)`
// serves the page and its API on 127.0.0.1, locked by a token; `inspectorHooks()` gives the manager
// the handlers that bring its servers' dialogs and notifications to the page.
export { InspectorError } from "./errors.js";
export { startInspector, type Inspector, type InspectorOptions } from "./server.js";
export { inspectorHooks, type InspectorHooks } from "./hooks.js";
export { HIDDEN_VALUE, type InspectorConfigEditing } from "./config-route.js";
export { userConfigEditing } from "./user-config.js";
export type {
  ApiError,
  AppCsp,
  AppMessageAnswer,
  AppMessageRequest,
  AppOpenAnswer,
  AppOpenRequest,
  AuthDoctorAnswer,
  AuthDoctorStep,
  HeldRow,
  CallAnswer,
  CallRequest,
  CompleteRequestBody,
  ConfigSaveAnswer,
  ConfigServersAnswer,
  ContentBlock,
  Dialog,
  DialogAnswer,
  InspectedServer,
  InspectorEvent,
  InspectorNews,
  InspectorState,
  JsonSchema,
  LogEntry,
  PingAnswer,
  PromptAnswer,
  PromptRow,
  ReadAnswer,
  ResourceContents,
  ResourceRow,
  RootsAnswer,
  RpcAnswer,
  RpcRequest,
  ServerRow,
  SignInAnswer,
  SignInStarted,
  TaskRow,
  ToolRow,
} from "./api.js";
export { LOG_LEVELS, TOKEN_HEADER } from "./api.js";
export { appPolicy } from "./app-csp.js";
export { isChatter } from "./log-ring.js";
