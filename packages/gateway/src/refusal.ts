// AuthRefusal: why a request's credentials are refused, as the HTTP answer says it (status and
// `WWW-Authenticate` challenge); thrown by an `authenticate`, answered by the HTTP front.

/** Why the gateway refuses a request's credentials: an HTTP status and its `WWW-Authenticate` challenge. */
export class AuthRefusal extends Error {
  override readonly name = "AuthRefusal";
  /**
   * RFC 6750's error code (`invalid_token`, `insufficient_scope`), or `missing_token` when none was
   * sent, `no_caller` when a valid token matches no caller rule, `unavailable` when the issuer's
   * keys could not be had.
   */
  readonly code: "missing_token" | "invalid_token" | "insufficient_scope" | "no_caller" | "unavailable";
  readonly status: 401 | 403 | 503;
  /** The `WWW-Authenticate` header of the answer, if any. */
  readonly challenge: string | undefined;
  constructor(
    code: AuthRefusal["code"],
    status: AuthRefusal["status"],
    message: string,
    challenge: string | undefined,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.code = code;
    this.status = status;
    this.challenge = challenge;
  }
  /** Whether `value` is one (across copies of this package). */
  static isInstance(value: unknown): value is AuthRefusal {
    return (
      value instanceof Error &&
      (value as { name?: unknown }).name === "AuthRefusal" &&
      typeof (value as { status?: unknown }).status === "number"
    );
  }
}
