import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import {
  askingPolicy,
  commandLine,
  createApprovalStore,
  NOT_APPROVED_YET,
  printable,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalSubject,
} from "@mcp/manager/config";
import { serverBlock } from "./approval-view.js";
import { color, note, shortPath, warn, tildify } from "./ui.js";

/**
 * Project-scope servers come with a repository the user may not trust. `@mcp/manager` refuses them
 * until an approval covers what they run (their fingerprint), and keeps the approvals
 * (`approvals.json`); this is the CLI's policy over it: on a terminal we ask and remember the
 * answer per project; `--yes` approves for one run; with no terminal and no `--yes` they are
 * skipped, and we say why and how to approve them. Claude Code's own approvals
 * (`enabledMcpjsonServers`, `enableAllProjectMcpServers`) are by name, as they are there.
 */

/** Where answers are remembered. */
export function approvalsFile(configDir: string): string {
  return join(configDir, "approvals.json");
}

/** Records that these project servers, as they are now, are approved for this project (`mcp config approve`, `mcp config add`). */
export async function rememberApproval(file: string, project: string, servers: ApprovalSubject[]): Promise<void> {
  await createApprovalStore({ file }).remember(project, servers);
}

/** Whether this project server, as it is now, is approved for this project (its fingerprint matches). */
export function isApproved(file: string, project: string, server: ApprovalSubject): Promise<boolean> {
  return createApprovalStore({ file }).isApproved(project, server);
}

/** Asks a yes-or-no question on the terminal (stderr); true only for "y" or "yes". */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/**
 * The one short line a run without a terminal writes about the project servers it skipped: how
 * many, why when it is one, and the command that approves them (`mcp servers` lists each, and why).
 */
export function skippedLine(servers: { name: string; why: string; file: string }[], approveCommand: string): string {
  const only = servers.length === 1 ? servers[0]! : undefined;
  const changed = servers.filter(({ why }) => why !== NOT_APPROVED_YET).length;
  const what = only
    ? `project server ${printable(only.name)} (${only.why}; ${printable(only.file)})`
    : `${servers.length} project servers not approved${changed > 0 ? ` (${changed} changed since approved)` : ""}`;
  // A long list of names would make the line long: then the command that approves them all.
  const command = approveCommand.length <= 60 ? approveCommand : "mcp config approve";
  return `Skipped ${what}. Approve: ${command}   (or --yes for one run${only ? "" : "; mcp servers lists them"})`;
}

/** What approves a project server: `mcp config approve <name>`, its name quoted as a shell needs it. */
export function approveCommandFor(names: readonly string[]): string {
  // Names come from the repository too: quoted and escaped like everything else shown from it.
  return commandLine("mcp", ["config", "approve", ...names]);
}

/**
 * The CLI's approval policy for `@mcp/manager`: its approvals file; `--yes` approves for one run;
 * on a terminal one question about every project server not declined here (@mcp/manager's
 * askingPolicy: approved as they are now, or declined by name, remembered); otherwise they are
 * skipped with one line on stderr that says how to approve them.
 */
export function cliApprovalPolicy(options: {
  project: string;
  file: string;
  yes: boolean;
  interactive: boolean;
  home: string;
}): ApprovalPolicy {
  const policy = {
    store: createApprovalStore({ file: options.file }),
    howToApprove: (server: ApprovalSubject) => approveCommandFor([server.name]),
  };
  const approveCommand = (asked: readonly ApprovalRequest[]): string =>
    approveCommandFor(asked.map((r) => r.server.name));
  if (options.yes) return { ...policy, approve: () => true };
  if (!options.interactive)
    return {
      ...policy,
      approve: (requests) => {
        const asked = requests.filter((request) => !request.declined);
        const skipped = asked.map(({ server, reason }) => ({
          name: server.name,
          why: reason,
          file: shortPath(server.source.file, options.project, options.home),
        }));
        if (asked.length > 0) warn(skippedLine(skipped, approveCommand(asked)));
        return false;
      },
    };
  return askingPolicy({
    ...policy,
    ask: async (asked) => {
      const blocks = asked.map(({ server, reason }) =>
        serverBlock(
          server.name,
          server,
          `(${printable(tildify(server.source.file, options.home))}${reason === NOT_APPROVED_YET ? "" : `; ${reason}`})`,
        ),
      );
      const yes = await confirm(
        `${color.bold("This project defines MCP servers")} that will run on this machine:\n${blocks.join("\n")}\nStart them? ${color.dim("(remembered for this project until they change)")} [y/N] `,
      );
      if (!yes) note(`Not starting them. To change your mind: ${approveCommand(asked)}`);
      return yes;
    },
  });
}
