// The manager's side of a gateway: the handlers a manager needs so that what its servers send
// (sampling, elicitation and roots questions, log messages, list changes) reaches the gateway.
// They exist before the gateway does (a manager is made with its handlers), so they look it up
// when called; createGateway binds them.

import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  LogMessage,
  NotificationContext,
  RequestContext,
  Root,
} from "@mcp/client";
import type { MCPManagerOptions } from "@mcp/manager";

/** What the gateway's core answers for its manager. */
export interface ManagerHooks {
  onSampling(server: string, params: CreateMessageParams, context: RequestContext): Promise<CreateMessageResult>;
  onElicitation(server: string, params: ElicitParams, context: RequestContext): Promise<ElicitResult>;
  onRoots(server: string, context: RequestContext): Promise<Root[]>;
  onLog(server: string, message: LogMessage, context?: NotificationContext): void;
  onNotification(server: string, method: string): void;
}

/** The manager options {@link gatewayHandlers} returns: spread them into `new MCPManager({ … })`. */
export interface GatewayHandlers {
  onSampling: NonNullable<MCPManagerOptions["onSampling"]>;
  onElicitation: NonNullable<MCPManagerOptions["onElicitation"]>;
  onRoots: NonNullable<MCPManagerOptions["onRoots"]>;
  onLog: NonNullable<MCPManagerOptions["onLog"]>;
  onNotification: NonNullable<MCPManagerOptions["onNotification"]>;
  /** Callers' answers go upstream as they gave them: no defaults filled in by the gateway. */
  connect: { applyElicitationDefaults: false };
}

const targets = new WeakMap<GatewayHandlers, ManagerHooks>();

/** Until a gateway is bound: no caller to ask. */
function unbound(): never {
  throw new Error("this manager's gateway is not created yet (pass these handlers to createGateway)");
}

/**
 * The handlers a gateway's manager must be made with, so servers' questions, logs and list
 * changes reach the gateway: `new MCPManager({ ...handlers, connect: { ...handlers.connect, … } })`,
 * then `createGateway(manager, { handlers })`. Made before the gateway, bound to it by createGateway.
 */
export function gatewayHandlers(): GatewayHandlers {
  const target = (): ManagerHooks => targets.get(handlers) ?? unbound();
  const handlers: GatewayHandlers = {
    onSampling: (server, params, context) => target().onSampling(server, params, context),
    onElicitation: (server, params, context) => target().onElicitation(server, params, context),
    onRoots: (server, context) => target().onRoots(server, context),
    onLog: (server, message, context) => targets.get(handlers)?.onLog(server, message, context),
    onNotification: (server, method) => targets.get(handlers)?.onNotification(server, method),
    connect: { applyElicitationDefaults: false },
  };
  return handlers;
}

/** Binds handlers made by {@link gatewayHandlers} to a gateway's core (once). */
export function bindHandlers(handlers: GatewayHandlers, hooks: ManagerHooks): void {
  if (targets.has(handlers)) throw new Error("these gateway handlers belong to another gateway already");
  targets.set(handlers, hooks);
}
