// How the daemon runs `mcp call` (its `call/2`, @mcp/daemon's CallHandler): the call's words found
// against the servers the calling CLI resolved, exactly as a direct `mcp call` finds them (resolve.ts),
// then the tool called with its progress passed on; a failure says what `mcp call` says without the daemon.

import { homedir } from "node:os";
import type { CallHandler } from "@mcp/daemon";
import { serversForWords } from "@mcp/manager";
import { failureHint } from "../live.js";
import { label, prepareCall } from "../resolve.js";
import type { Session } from "../session.js";

/** The daemon's `mcp call`; the servers it may start are those its words name (@mcp/manager's serversForWords). */
export const callHandler: CallHandler = {
  serversOf: (params) => serversForWords(params, params.words),
  async run(params, context) {
    // Exactly what the CLI resolved: its servers, and why the others are missing.
    const session: Session = {
      ...params,
      manager: context.manager,
      home: process.env["HOME"] ?? homedir(),
      whySkipped: new Map(Object.entries(params.whySkipped ?? {})),
      register: () => context.register(),
      close: async () => {},
    };
    const { tool, args } = await prepareCall(session, params.words, context.signal);
    context.used(tool.serverName);
    context.calling(label(tool));
    const result = await tool
      .call(args, {
        signal: context.signal,
        resetTimeoutOnProgress: true,
        onProgress: (progress) =>
          context.progress({ progress: progress.progress, total: progress.total, message: progress.message }),
        ...(params.timeout === undefined ? {} : { timeout: params.timeout }),
        ...(params.maxResultChars === undefined ? {} : { maxResultChars: params.maxResultChars }),
      })
      .catch((error: unknown) => failureHint(error, `calling ${label(tool)}`)); // what `mcp call` says without the daemon
    context.used(tool.serverName);
    return { label: label(tool), toolName: tool.toolName, value: result };
  },
};
