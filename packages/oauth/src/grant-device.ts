// The device authorization grant (RFC 8628): a code the user enters on another device, and polling until they have.
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { Discovery } from "./discovery.js";
import { OAuthError } from "./errors.js";
import type { GrantContext } from "./options.js";
import { DEVICE_CODE_GRANT } from "./registration.js";
import type { StoredTokens } from "./token-store.js";
import { authenticate, postForm, requestToken } from "./token-endpoint.js";

/** Waits `ms`, or rejects at once when `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted)
      return reject(
        new OAuthError("authorization", "The device authorization was cancelled", { cause: signal.reason }),
      );
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", cancel);
      resolve();
    }
    function cancel(): void {
      clearTimeout(timer);
      reject(new OAuthError("authorization", "The device authorization was cancelled", { cause: signal?.reason }));
    }
    signal?.addEventListener("abort", cancel, { once: true });
  });
}

/**
 * The `device_code` grant: asks the device authorization endpoint for a code, tells the user
 * (`device.onCode`), then polls the token endpoint every `interval` seconds (5 by default, 5 more
 * after each `slow_down`) until the user approves, refuses (`access_denied`) or the code expires.
 */
export async function deviceCodeGrant(
  ctx: GrantContext,
  found: Discovery,
  scope: string | undefined,
): Promise<StoredTokens> {
  const endpoint = found.metadata["device_authorization_endpoint"];
  if (typeof endpoint !== "string")
    throw new OAuthError(
      "metadata",
      `The authorization server ${redactUrl(found.issuer)} has no device_authorization_endpoint (RFC 8628); it does not offer the device flow`,
    );
  const device = ctx.options.device;
  if (!device)
    throw new OAuthError(
      "authorization",
      "The device_code grant needs the device option (onCode, to show the user the code)",
    );
  const client = await ctx.client(found, undefined);
  const body = new URLSearchParams();
  if (scope) body.set("scope", scope);
  if (found.profile?.resourceParameter !== false) body.set("resource", found.resourceIndicator);
  const headers = authenticate(client, body, "token", ctx.options.clientAssertionKey, found.issuer);
  const answer = await postForm(
    ctx.fetch,
    "token",
    "device authorization endpoint",
    endpoint,
    headers,
    body.toString(),
    "device_code",
  );
  const userCode = answer["user_code"];
  const verificationUri = answer["verification_uri"];
  if (typeof userCode !== "string" || typeof verificationUri !== "string")
    throw new OAuthError(
      "token",
      `The device authorization endpoint ${redactUrl(endpoint)} gave no user_code or verification_uri`,
    );
  const expiresIn = typeof answer["expires_in"] === "number" ? answer["expires_in"] : 600;
  device.onCode({
    userCode,
    verificationUri,
    verificationUriComplete:
      typeof answer["verification_uri_complete"] === "string" ? answer["verification_uri_complete"] : undefined,
    expiresIn,
  });
  let interval = typeof answer["interval"] === "number" && answer["interval"] > 0 ? answer["interval"] : 5;
  const deadline = Date.now() + expiresIn * 1000;
  for (;;) {
    await wait(interval * 1000, device.signal);
    try {
      return await requestToken(
        ctx.fetch,
        found,
        client,
        "token",
        { grant_type: DEVICE_CODE_GRANT, device_code: answer["device_code"] },
        scope,
        ctx.options.clientAssertionKey,
        ctx.dpopKey(),
      );
    } catch (error) {
      const code = error instanceof OAuthError ? error.oauthError : undefined;
      if (code === "slow_down") interval += 5;
      else if (code !== "authorization_pending") throw error;
      if (Date.now() > deadline)
        throw new OAuthError("authorization", "The device code expired before the user approved it", {
          oauthError: "expired_token",
        });
    }
  }
}
