// Which redirects a call follows: only 307 and 308, only within the URL's origin, at most five; any other is an error naming where it pointed.
import { HttpError, redactUrl } from "@mcp/jsonrpc";

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Where a redirect answer is followed, or undefined when `response` is not one. The policy is
 * `@mcp/transport-http`'s: only within the origin of `url` (so no header or credential leaves for
 * an origin the caller did not name), only 307 and 308 (a 301/302/303 would turn the POST into a
 * GET whose answer could pass for the call's), at most 5 in a row. A redirect not followed throws
 * an {@link HttpError} naming its `Location` and why. The body of a redirect is never read.
 */
export function redirectTarget(response: Response, url: string, current: string, hops: number): string | undefined {
  const opaque = response.type === "opaqueredirect"; // a browser's manual redirect: it hides the status and where it points
  const location = response.headers.get("location");
  if (!opaque && (!REDIRECTS.has(response.status) || location === null)) return undefined;
  void response.body?.cancel().catch(() => undefined); // followed or not, its body is not read
  if (opaque || location === null) throw notFollowed(response, current, undefined, "the browser does not show where it points");
  let target: URL;
  try {
    target = new URL(location, current);
  } catch {
    throw notFollowed(response, current, location, "it is not a valid URL");
  }
  const origin = new URL(url).origin;
  let why: string | undefined;
  if (target.protocol !== "http:" && target.protocol !== "https:") why = `it is not an http or https URL (${target.protocol})`;
  else if (target.origin !== origin) why = `it points to another origin (${target.origin}); redirects are followed only within ${origin}`;
  else if (response.status !== 307 && response.status !== 308) why = `a ${response.status} would turn the POST into a GET without its body; only 307 and 308 are followed`;
  else if (hops >= MAX_REDIRECTS) why = `more than ${MAX_REDIRECTS} redirects in a row`;
  if (why !== undefined) throw notFollowed(response, current, target.href, why);
  return target.href;
}

function notFollowed(response: Response, url: string, location: string | undefined, why: string): HttpError {
  const { status, statusText } = response;
  const where = location === undefined ? "a redirect" : `a redirect to ${redactUrl(location)}`;
  return new HttpError({ status, statusText, url, location }, "http_error", `MCP request failed: ${status}${statusText ? ` ${statusText}` : ""}: ${where}, not followed: ${why}`);
}
