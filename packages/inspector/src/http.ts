import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { TOKEN_HEADER } from "./api.js";

// The inspector's HTTP plumbing and its security gate: who may talk to it (token, Host, Origin,
// Sec-Fetch-Site), the headers every answer carries, and reading and checking a JSON body.

/** Largest request body the API reads. */
const MAX_BODY = 1024 * 1024;

/** A request the API refuses, with the status to answer. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string | number,
  ) {
    super(message);
  }
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function sameToken(given: string | undefined, token: Buffer): boolean {
  if (given === undefined) return false;
  const bytes = Buffer.from(given);
  return bytes.length === token.length && timingSafeEqual(bytes, token);
}

/** Why a request is refused before it reaches a route, or undefined when it may go on. */
export function refusalOf(req: IncomingMessage, port: number, token: Buffer): Refusal | undefined {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host;
  if (host === undefined || !hosts.includes(host.toLowerCase()))
    return new Refusal(403, `Host "${host ?? ""}" is not this inspector's (${hosts[0]})`);
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`))
    return new Refusal(403, `Origin "${origin}" may not use this inspector`);
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none")
    return new Refusal(403, `a ${String(site)} request may not use this inspector`);
  const url = new URL(req.url ?? "/", `http://${hosts[0]}`);
  const header = req.headers[TOKEN_HEADER];
  const given = typeof header === "string" ? header : (url.searchParams.get("token") ?? undefined);
  if (!sameToken(given, token))
    return new Refusal(401, "missing or wrong token: open the inspector's URL, token included");
  return undefined;
}

export const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) throw new Refusal(415, "the body must be application/json");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refusal(413, `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new Refusal(400, `the body is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new Refusal(400, "the body must be a JSON object");
  return value;
}

export function text(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== "string" || value === "") throw new Refusal(400, `"${key}" must be a non-empty string`);
  return value;
}

export function stringRecord(value: unknown, key: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== "string"))
    throw new Refusal(400, `"${key}" must be an object of strings`);
  return value as Record<string, string>;
}
