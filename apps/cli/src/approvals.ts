// The CLI's approval policy (ask on a terminal, --yes for one run, else skip and say how to approve) and its approvals file.
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import {
  commandLine,
  createApprovalStore,
  NOT_APPROVED_YET,
  personPolicy,
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

/** Asks a yes-or-no question on the terminal (stderr); true only for "y" or "yes". */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Asks on the terminal whether these project servers may run, each shown as it will run, its file (and why asked) beside. */
export function confirmServers(
  home: string,
  servers: readonly { server: ApprovalRequest["server"]; reason?: string }[],
  heading: string,
  question: string,
): Promise<boolean> {
  const blocks = servers.map(({ server, reason = NOT_APPROVED_YET }) => {
    const why = reason === NOT_APPROVED_YET ? "" : `; ${reason}`;
    return serverBlock(server.name, server, `(${printable(tildify(server.source.file, home))}${why})`);
  });
  return confirm(`${heading}:\n${blocks.join("\n")}\n${question}`);
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
  const ask = async (asked: readonly ApprovalRequest[]): Promise<boolean> => {
    const yes = await confirmServers(
      options.home,
      asked,
      `${color.bold("This project defines MCP servers")} that will run on this machine`,
      `Start them? ${color.dim("(remembered for this project until they change)")} [y/N] `,
    );
    if (!yes) note(`Not starting them. To change your mind: ${approveCommand(asked)}`);
    return yes;
  };
  return personPolicy({
    store: createApprovalStore({ file: options.file }),
    howToApprove: (server: ApprovalSubject) => approveCommandFor([server.name]),
    yes: options.yes,
    ask: options.interactive ? ask : undefined,
    skipped: (asked) => warn(skippedLine(asked, options.project, options.home)),
  });
}
