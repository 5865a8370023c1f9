// Telling JSON-RPC messages apart safely: requests, notifications, responses and batches.
import type {
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
  RequestId,
} from "./types.js";

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A valid request id: a string, or a finite integer that survives a JSON round trip exactly. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

function hasEnvelope(value: unknown): value is Rec {
  return isRecord(value) && value["jsonrpc"] === "2.0";
}

function hasValidParams(value: Rec): boolean {
  // JSON-RPC: params, when present, is a structured value (object or array).
  return !("params" in value) || value["params"] === undefined || typeof value["params"] === "object";
}

function hasMethod(value: Rec): boolean {
  return typeof value["method"] === "string" && value["method"] !== "" && hasValidParams(value);
}

function isJsonRpcRequestUnsafe(value: unknown): value is JsonRpcRequest {
  return hasEnvelope(value) && hasMethod(value) && isRequestId(value["id"]);
}

function isJsonRpcNotificationUnsafe(value: unknown): value is JsonRpcNotification {
  return (
    hasEnvelope(value) && hasMethod(value) && (!("id" in value) || value["id"] === null || value["id"] === undefined)
  );
}

function isErrorObject(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value["code"] === "number" &&
    Number.isInteger(value["code"]) &&
    typeof value["message"] === "string"
  );
}

function isJsonRpcSuccessResponseUnsafe(value: unknown): value is JsonRpcSuccessResponse {
  return (
    hasEnvelope(value) && !("method" in value) && isRequestId(value["id"]) && "result" in value && !("error" in value)
  );
}

function isJsonRpcErrorResponseUnsafe(value: unknown): value is JsonRpcErrorResponse {
  return (
    hasEnvelope(value) &&
    !("method" in value) &&
    (isRequestId(value["id"]) || value["id"] === null) &&
    isErrorObject(value["error"]) &&
    !("result" in value)
  );
}

function isJsonRpcResponseUnsafe(value: unknown): value is JsonRpcResponse {
  return isJsonRpcSuccessResponseUnsafe(value) || isJsonRpcErrorResponseUnsafe(value);
}

/** A batch: a non-empty array (its members are classified one by one). Never throws. */
export function isJsonRpcBatch(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0;
}

function isJsonRpcMessageUnsafe(value: unknown): value is JsonRpcMessage {
  return isJsonRpcRequestUnsafe(value) || isJsonRpcNotificationUnsafe(value) || isJsonRpcResponseUnsafe(value);
}

function safe<T>(fn: (value: unknown) => boolean): (value: unknown) => value is T {
  return (value: unknown): value is T => {
    try {
      return fn(value);
    } catch {
      // A hostile object (a throwing getter or Proxy) is simply not a message.
      return false;
    }
  };
}

/** A request: `jsonrpc: "2.0"`, a string `method` and a string or integer `id`. Never throws. */
export const isJsonRpcRequest = /* @__PURE__ */ safe<JsonRpcRequest>(isJsonRpcRequestUnsafe);
/** A notification: a `method` and no `id` (an `id: null` with a method counts as one). Never throws. */
export const isJsonRpcNotification = /* @__PURE__ */ safe<JsonRpcNotification>(isJsonRpcNotificationUnsafe);
/** A success response: an id and `result`, no `error`, no `method`. Never throws. */
export const isJsonRpcSuccessResponse = /* @__PURE__ */ safe<JsonRpcSuccessResponse>(isJsonRpcSuccessResponseUnsafe);
/** An error response: a well-formed `error`, no `result`; `id` may be `null`. Never throws. */
export const isJsonRpcErrorResponse = /* @__PURE__ */ safe<JsonRpcErrorResponse>(isJsonRpcErrorResponseUnsafe);
/** Either kind of response. Never throws. */
export const isJsonRpcResponse = /* @__PURE__ */ safe<JsonRpcResponse>(isJsonRpcResponseUnsafe);
/** Any single valid message. Never throws. */
export const isJsonRpcMessage = /* @__PURE__ */ safe<JsonRpcMessage>(isJsonRpcMessageUnsafe);

/** The result of {@link classifyMessage}. */
export type ClassifiedMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | { kind: "batch"; messages: unknown[] }
  | { kind: "invalid"; reason: string };

/** Sorts an unknown value into one message kind, or says why it is none. Never throws. */
export function classifyMessage(value: unknown): ClassifiedMessage {
  try {
    if (isJsonRpcBatch(value)) return { kind: "batch", messages: value };
    if (Array.isArray(value)) return { kind: "invalid", reason: "empty batch" };
    if (!isRecord(value))
      return { kind: "invalid", reason: `expected an object, got ${value === null ? "null" : typeof value}` };
    if (value["jsonrpc"] !== "2.0") return { kind: "invalid", reason: 'missing or wrong "jsonrpc" (expected "2.0")' };
    if (isJsonRpcRequestUnsafe(value)) return { kind: "request", message: value };
    if (isJsonRpcNotificationUnsafe(value)) return { kind: "notification", message: value };
    if (isJsonRpcResponseUnsafe(value)) return { kind: "response", message: value };
    if ("method" in value) {
      if (!hasMethod(value))
        return { kind: "invalid", reason: "method must be a non-empty string and params an object or array" };
      return { kind: "invalid", reason: "request id must be a string or a safe integer" };
    }
    if ("result" in value && "error" in value) return { kind: "invalid", reason: "response has both result and error" };
    if ("error" in value && !isErrorObject(value["error"]))
      return { kind: "invalid", reason: "error must have an integer code and a string message" };
    if ("result" in value || "error" in value)
      return { kind: "invalid", reason: "response id must be a string or a safe integer" };
    return { kind: "invalid", reason: "neither a request, a notification nor a response" };
  } catch (error) {
    // A hostile object (a throwing getter or Proxy) must not escape as an exception.
    return { kind: "invalid", reason: `unreadable value: ${String(error)}` };
  }
}
