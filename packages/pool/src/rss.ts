// A server's resident memory and CPU time: on Linux, `VmRSS` and `utime + stime` of its process
// and every process under it (a server started through `npx` or a shell is a tree), read from
// /proc. Undefined elsewhere.

import { readdirSync, readFileSync } from "node:fs";

function statusRss(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The parent of each live process (Linux), from /proc/<pid>/stat. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name (field 2) is in parentheses and may hold spaces: fields after its last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      map.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

/** `pid` and every process under it (Linux); just `pid` elsewhere. */
export function processTree(pid: number): number[] {
  if (process.platform !== "linux") return [pid];
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) byParent.set(parent, [...(byParent.get(parent) ?? []), child]);
  const tree = [pid];
  for (let at = 0; at < tree.length; at++) tree.push(...(byParent.get(tree[at]!) ?? []));
  return tree;
}

/** Resident bytes of `pid` and its descendants (Linux); undefined when unknown. */
export function rssOf(pid: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  const own = statusRss(pid);
  if (own === undefined) return undefined;
  return processTree(pid)
    .slice(1)
    .reduce((sum, child) => sum + (statusRss(child) ?? 0), own);
}

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`: 100 on Linux's usual builds). */
const CLOCK_TICKS = 100;

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** CPU seconds (user and system) used so far by `pid` and the processes under it (Linux); undefined elsewhere. */
export function cpuSecondsOf(pid: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  return processTree(pid).reduce((sum, one) => sum + cpuTicks(one), 0) / CLOCK_TICKS;
}
