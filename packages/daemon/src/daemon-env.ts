// The environment of a daemon a shim starts: the shim's, without the variables its host set only for
// the server's entry (a token, its NODE_OPTIONS), which the daemon, serving every host after, must not
// keep (the server still gets them, from its config); those that decide where the daemon lives stay.

/** Variables that decide where the daemon's socket and files are. */
const WHERE_IT_LIVES = /^(HOME|XDG_[A-Z_]+|MCP_DAEMON_SOCKET|TMPDIR)$/;

/**
 * `env` (default `process.env`) without the variables named in `entryEnv` (the names in the entry's
 * own `env`, which its host set for the shim), but for those that decide where the daemon lives
 * (`HOME`, `XDG_*`, `MCP_DAEMON_SOCKET`, `TMPDIR`): it must listen where the shim looks.
 */
export function daemonEnvFor(entryEnv: readonly string[], env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !entryEnv.includes(name) || WHERE_IT_LIVES.test(name)),
  );
}
