// A real terminal for the CLI's tests: tmux runs `mcp`, send-keys types, capture-pane reads. Each
// test file has a tmux server of its own (its own socket), killed with `stop()`.
import { execFileSync, spawnSync } from "node:child_process";
import { bin, type Sandbox } from "./helpers.js";

/** Whether tmux is installed (the terminal tests are skipped without it). */
export const haveTmux = spawnSync("tmux", ["-V"]).status === 0;

/** A terminal pane: what it shows, with wrapped lines joined as they were written, and keys typed into it. */
export interface Pane {
  screen: () => string;
  joined: () => string;
  keys: (...keys: string[]) => void;
}

/** A tmux server on a socket named after `name` and this process. */
export function tmuxServer(name: string): {
  tmux: (...args: string[]) => string;
  terminal: (b: Sandbox, session: string, args: string[], size?: { width?: number; height?: number }) => Pane;
  stop: () => void;
} {
  const socket = `${name}-${process.pid}`;
  const tmux = (...args: string[]): string => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  return {
    tmux,
    /** Starts `mcp <args>` in a fresh pane (120×30 unless told); the pane stays after exit, printing the exit code. */
    terminal: (b, session, args, { width = 120, height = 30 } = {}) => {
      const env = Object.entries({ ...b.env, NO_COLOR: "" })
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(" ");
      // `trap` keeps the wrapping shell alive through Ctrl-C (a handler, not SIG_IGN: node starts with the default).
      const command = `trap 'true' INT; cd ${JSON.stringify(b.project)} && env ${env} TERM=xterm-256color ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${args.map((a) => JSON.stringify(a)).join(" ")}; echo "EXIT=$?"; sleep 60`;
      tmux("new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), "sh", "-c", command);
      return {
        screen: () => tmux("capture-pane", "-p", "-t", session),
        joined: () => tmux("capture-pane", "-p", "-J", "-t", session),
        keys: (...keys) => void tmux("send-keys", "-t", session, ...keys),
      };
    },
    stop: () => void spawnSync("tmux", ["-L", socket, "kill-server"]),
  };
}

/** Reads the screen until `test` holds (every 100 ms), or fails after `ms` with the last screen. */
export async function until(read: () => string, test: (screen: string) => boolean, ms = 60_000): Promise<string> {
  const deadline = Date.now() + ms;
  let screen = read();
  while (!test(screen)) {
    if (Date.now() > deadline) throw new Error(`the screen never matched; last screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    screen = read();
  }
  return screen;
}
