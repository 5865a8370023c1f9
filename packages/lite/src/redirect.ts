// Which redirects a call follows: only 307 and 308, only within the URL's origin, at most five; any other is an error naming where it pointed.
import { HttpError } from "@mcp/jsonrpc";
import { judgeRedirect, redactUrl, REDIRECT_STATUSES, redirectNotFollowedMessage } from "@mcp/jsonrpc/internal";

/**
 * Where a redirect answer is followed, or undefined when `response` is not one. The policy is
 * `@mcp/transport-http`'s, from one place (`@mcp/jsonrpc/internal`): only within the origin of
 * `url` (so no header or credential leaves for an origin the caller did not name), only 307 and
 * 308 (a 301/302/303 would turn the POST into a GET whose answer could pass for the call's), at
 * most 5 in a row. A redirect not followed throws an {@link HttpError} naming its `Location` and
 * why, in the transport's words. The body of a redirect is never read.
 */
export function redirectTarget(response: Response, url: string, current: string, hops: number): string | undefined {
  const opaque = response.type === "opaqueredirect"; // a browser's manual redirect: it hides the status and where it points
  const location = response.headers.get("location");
  if (!opaque && (!REDIRECT_STATUSES.has(response.status) || location === null)) return undefined;
  void response.body?.cancel().catch(() => undefined); // followed or not, its body is not read
  const judged = judgeRedirect({
    configured: url,
    current,
    location: opaque ? undefined : (location ?? undefined),
    status: response.status,
    method: "POST",
    hops,
  });
  if ("follow" in judged) return judged.follow.href;
  const { status, statusText } = response;
  throw new HttpError(
    { status, statusText, url: current, location: judged.target },
    "http_error",
    redirectNotFollowedMessage(
      status,
      judged.target === undefined ? undefined : redactUrl(judged.target),
      judged.refuse,
    ),
  );
}
