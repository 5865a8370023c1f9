// A server's resident memory: on Linux, `VmRSS` of its process and every process under it (a
// server started through `npx` or a shell is a tree), read from /proc. Undefined elsewhere.

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
