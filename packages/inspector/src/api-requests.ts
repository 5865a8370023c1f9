// The inspector's API for the page user's own requests (part of the API that api.ts documents):
// a raw JSON-RPC request, a ping, the roots declared, and the sign-in doctor.

/** One step of {@link AuthDoctorAnswer}, as `mcp auth doctor --json` prints it. */
export interface AuthDoctorStep {
  /** `challenge`, `resource-metadata`, … `token-accepted`. */
  step: string;
  status: "pass" | "fail" | "skip" | "warn";
  /** The spec clauses the step checks. */
  clause: string;
  /** What to do about it (or, for a pass, what was found). */
  advice: string;
  detail?: string | undefined;
}

/** `mcp auth doctor <server> --json`: why sign-in to an HTTP server fails, step by step. Never holds a secret. */
export interface AuthDoctorAnswer {
  /** The server's URL, secrets in it hidden. */
  server: string;
  /** False when a step fails. */
  ok: boolean;
  steps: AuthDoctorStep[];
}

/** `POST /api/rpc`: a JSON-RPC request to send to one server as it is (the page user's own). */
export interface RpcRequest {
  server: string;
  /** Any method name (no whitespace, at most 200 characters). */
  method: string;
  params?: Record<string, unknown> | undefined;
}

/** The answer to `POST /api/rpc`: the server's `result`, or its JSON-RPC `error` as sent (or what failed on the way: a timeout, a closed connection). */
export interface RpcAnswer {
  ms: number;
  result?: unknown;
  error?: { code?: string | number | undefined; message: string; data?: unknown } | undefined;
}

/** The answer to `POST /api/ping`: the method sent and the round trip's time, or its error. */
export interface PingAnswer extends RpcAnswer {
  method: "ping" | "server/discover";
}

/** The answer to `POST /api/roots`: the roots now declared, and the servers told they changed. */
export interface RootsAnswer {
  roots: { uri: string; name?: string | undefined }[];
  /** The servers sent `notifications/roots/list_changed`. */
  notified: string[];
}

/** `POST /api/config/servers`: the servers of the user's config file as written (`${VAR}` kept), values that look like secrets hidden. */
export interface ConfigServersAnswer {
  /** The file: the only one the page writes. */
  file: string;
  /** Each entry as written; an `env` or `headers` value that looks like a secret is `(hidden: kept as written)`, which saved back keeps it. */
  servers: { name: string; config: unknown }[];
}

/** `POST /api/config/save`: written; `applied` when it runs now (the user's entry is the one that loads), else `reason`. */
export interface ConfigSaveAnswer {
  saved: true;
  applied: boolean;
  /** Why it does not run now (another file's entry of that name comes first; it does not load). */
  reason?: string | undefined;
  /** Values written that look like secrets. */
  warnings: string[];
}

/** `POST /api/auth/sign-in`: the sign-in's user step is ready: the page shows `url` for the user to open. */
export interface SignInStarted {
  server: string;
  /** The authorization URL to open (the user signs in there). */
  url: string;
  /** Where the authorization server sends the browser back: the inspector's loopback listener for this sign-in. */
  redirectUri: string;
}

/** `POST /api/auth/sign-in/wait`: how the sign-in ended (tokens saved: `ok`), and whether the server then reconnected. */
export interface SignInAnswer {
  server: string;
  ok: boolean;
  reconnected?: boolean | undefined;
  error?: string | undefined;
}
