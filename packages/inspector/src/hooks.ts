// The inspector's hooks into a manager: the handlers that bring its servers' dialogs and notifications to the page, made before the manager.
import { mcpAppsExtension } from "@mcp/client/apps";
import type { MCPManagerOptions } from "@mcp/manager";
import { InspectorError } from "./errors.js";
import { InspectorHub } from "./hub.js";

/**
 * What the inspector needs from a manager at its construction: the handlers that show a server's
 * `elicitation/create` and `sampling/createMessage` as dialogs on the page, the notification
 * listener that fills its log (and re-reads subscribed resources), and the MCP Apps extension (so
 * servers offer their UI tools). Spread its handlers into `new MCPManager({ … })` and pass the same
 * object to {@link startInspector} as `hooks`.
 */
export interface InspectorHooks {
  /** A server's `elicitation/create`: a dialog on the page (a form, or the URL it asks to open) until the user accepts, declines or cancels; `cancel` when the inspector closes. */
  onElicitation: NonNullable<MCPManagerOptions["onElicitation"]>;
  /** A server's `sampling/createMessage`: a dialog where the user writes the model's reply. */
  onSampling: NonNullable<MCPManagerOptions["onSampling"]>;
  /** A server's `roots/list`: the roots declared in the page (none until the user declares some); advertises `roots`. */
  onRoots: NonNullable<MCPManagerOptions["onRoots"]>;
  /** Every notification and log line into the page's log; `notifications/resources/updated` re-reads a subscribed resource. */
  onNotification: NonNullable<MCPManagerOptions["onNotification"]>;
  /**
   * Connect options: `extensions` declares MCP Apps, `capabilities` both elicitation modes (a form,
   * and a URL the page shows as a link), `serverRequestTasks` that a server may send its elicitation
   * and sampling requests as tasks (MCP 2025-11-25 tasks: the dialog is answered in the background,
   * the server polls; the Tasks view shows them). Merge your own (`clientInfo`, …) beside them.
   */
  connect: {
    extensions: Record<string, { mimeTypes: string[] }>;
    capabilities: { elicitation: { form: Record<string, never>; url: Record<string, never> } };
    serverRequestTasks: true;
  };
}

const hubs = new WeakMap<InspectorHooks, InspectorHub>();

/**
 * New hooks for one inspector. A manager made without them still works with the inspector, but its
 * servers' elicitation and sampling requests and notifications never reach the page.
 *
 * @example
 * const hooks = inspectorHooks();
 * const manager = new MCPManager({ ...hooks });
 * const inspector = await startInspector(manager, { hooks });
 */
export function inspectorHooks(): InspectorHooks {
  const hub = new InspectorHub();
  const hooks: InspectorHooks = {
    onElicitation: hub.onElicitation,
    onSampling: hub.onSampling,
    onRoots: hub.onRoots,
    onNotification: hub.onNotification,
    connect: {
      extensions: mcpAppsExtension(),
      capabilities: { elicitation: { form: {}, url: {} } },
      serverRequestTasks: true,
    },
  };
  hubs.set(hooks, hub);
  return hooks;
}

/** The hub behind `hooks` (a new one when there are none). */
export function hubOf(hooks: InspectorHooks | undefined): InspectorHub {
  const hub = hooks === undefined ? undefined : hubs.get(hooks);
  if (hooks !== undefined && hub === undefined)
    throw new InspectorError("startInspector: `hooks` must be the object inspectorHooks() returned", "invalid_option");
  return hub ?? new InspectorHub();
}
