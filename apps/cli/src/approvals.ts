// The CLI's approval policy (ask on a terminal, --yes for one run, else skip and say how to approve) and its approvals file.
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import {
  askingPolicy,
  commandLine,
  createApprovalStore,
  NOT_APPROVED_YET,
  printable,
  shortPath,
  tildify,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalSubject,
} from "@mcp/manager/config";
import { serverBlock } from "./approval-view.js";
import { color, HINT, note, warn } from "./ui.js";

/** Where answers are remembered. */
export function approvalsFile(configDir: string): string {
  return join(configDir, "approvals.json");
}

/** Records that these project servers, as they are now, are approved for this project (`mcp config approve`, `mcp config add`). */
export async function rememberApproval(file: string, project: string, servers: ApprovalSubject[]): Promise<void> {
  await createApprovalStore({ file }).remember(project, servers);
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

/** What approves a project server: `mcp config approve <name>`, its name quoted as a shell needs it. */
export function approveCommandFor(names: readonly string[]): string {
  // Names come from the repository too: quoted and escaped like everything else shown from it.
  return commandLine("mcp", ["config", "approve", ...names]);
}

/** What approves these project servers: `mcp config approve <names>`. */
const approveCommand = (asked: readonly ApprovalRequest[]): string =>
  approveCommandFor(asked.map((r) => r.server.name));

/**
 * The one short line a run without a terminal writes about the project servers it skipped: how
 * many, why when it is one, and the command that approves them (`mcp servers` lists each, and why).
 */
function skippedLine(asked: readonly ApprovalRequest[], project: string, home: string): string {
  const [only] = asked.length === 1 ? asked : [];
  const changed = asked.filter(({ reason }) => reason !== NOT_APPROVED_YET).length;
  const what = only
    ? `project server ${printable(only.server.name)} (${only.reason}; ${printable(shortPath(only.server.source.file, project, home))})`
    : `${asked.length} project servers not approved${changed > 0 ? ` (${changed} changed since approved)` : ""}`;
  return `Skipped ${what}.${HINT.approveAll(approveCommand(asked), only ? "" : "; mcp servers lists them")}`;
}

/**
 * The CLI's approval policy for `@mcp/manager`, over project-scope servers (they come with a
 * repository the user may not trust, and start only once an approval covers what they run): its
 * approvals file; `--yes` approves for one run; on a terminal one question about every project
 * server not declined here (@mcp/manager's askingPolicy: approved as they are now, or declined by
 * name, remembered per project); otherwise they are skipped with one line on stderr that says how
 * to approve them. Claude Code's own approvals (`enabledMcpjsonServers`, …) are by name, as there.
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
  if (options.yes) return { ...policy, approve: () => true };
  if (!options.interactive)
    return {
      ...policy,
      approve: (requests) => {
        const asked = requests.filter((request) => !request.declined);
        if (asked.length > 0) warn(skippedLine(asked, options.project, options.home));
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
