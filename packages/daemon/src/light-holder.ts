// The light shim's reading `cat` (U's holder) when the daemon ends a session: it waits in a read of
// the host's stdin that a closed U does not end (it would notice only at its next write), so a host
// that keeps its stdin open and writes nothing would keep it for good. The script tells its pid on
// D (a label, trusted for nothing); the daemon signals it only when that pid, now, holds U's own
// end of the connection (Linux: the socket's inode in /proc/net/tcp, found by U's two ports, among
// /proc/<pid>/fd). A pid that was reused, or names a process in another pid namespace, holds no
// such socket and is left alone. Elsewhere (no /proc) nothing is signalled: the cat ends when the
// host lets go of its stdin, as before.

import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The hex `ADDR:PORT` of /proc/net/tcp as a loopback port, or undefined when it is not on 127.0.0.1. */
function loopbackPort(field: string | undefined): number | undefined {
  const [address, port] = (field ?? "").split(":");
  // Written in the kernel's byte order: 0100007F on little-endian machines, 7F000001 on big-endian.
  if (address !== "0100007F" && address !== "7F000001") return undefined;
  return Number.parseInt(port ?? "", 16);
}

/** The inode of the socket whose local port is `local` and remote port `remote` (both on 127.0.0.1), this user's; undefined when none. */
export function tcpInode(local: number, remote: number, table = "/proc/net/tcp"): string | undefined {
  let text: string;
  try {
    text = readFileSync(table, "utf8");
  } catch {
    return undefined;
  }
  const uid = process.getuid?.();
  for (const line of text.split("\n").slice(1)) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
    const fields = line.trim().split(/\s+/);
    if (loopbackPort(fields[1]) !== local || loopbackPort(fields[2]) !== remote) continue;
    if (uid !== undefined && Number(fields[7]) !== uid) continue;
    const inode = fields[9];
    if (inode !== undefined && /^[1-9]\d*$/.test(inode)) return inode;
  }
  return undefined;
}

/** Whether `pid` holds the socket `inode` (/proc/<pid>/fd). */
function holds(pid: number, inode: string): boolean {
  const target = `socket:[${inode}]`;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
    } catch {
      return false;
    }
  });
}

/**
 * Ends the process `pid` (SIGTERM) when it holds the far end of the loopback connection from port
 * `shimPort` to the daemon's `daemonPort` (see the file's head); whether it was signalled.
 */
export function stopHolder(pid: number, shimPort: number, daemonPort: number): boolean {
  if (process.platform !== "linux" || !Number.isSafeInteger(pid) || pid <= 1) return false;
  const inode = tcpInode(shimPort, daemonPort);
  if (inode === undefined || !holds(pid, inode)) return false;
  try {
    process.kill(pid, "SIGTERM");
    return true;
  } catch {
    return false;
  }
}
