// What checking a caller costs the gateway per request: a static bearer token beside a JWT access
// token of an issuer (a real oidc-provider on loopback), its first request (the issuer's metadata
// and keys fetched) then a token seen before (remembered until it expires) and new tokens (their signatures checked,
// the keys cached); ES256 and RS256. `node src/gateway-auth.mjs [N]`.
import { performance } from "node:perf_hooks";
import { bearerTokens, oidcAuthenticate } from "@mcp/gateway";
import { startIdp } from "mcp-test-utils";

const N = Number(process.argv[2] ?? 5000);
const FRESH = 300;
const RESOURCE = "http://127.0.0.1:1/mcp";
const request = (token) => ({ headers: { authorization: `Bearer ${token}` } });

/** Mean µs per call of `check` over N calls, after N/10 to warm up. */
async function perCall(check) {
  for (let i = 0; i < N / 10; i++) await check();
  const start = performance.now();
  for (let i = 0; i < N; i++) await check();
  return ((performance.now() - start) * 1000) / N;
}

const rows = [];
const tokens = new Map(
  Array.from({ length: 10 }, (_, i) => [`static-token-${i}-0123456789abcdef`, { id: String(i), name: `c${i}` }]),
);
const staticCheck = bearerTokens(tokens);
const last = request("static-token-9-0123456789abcdef");
rows.push(["static token (10 callers, the last matches)", "-", (await perCall(() => staticCheck(last))).toFixed(2)]);

for (const alg of ["ES256", "RS256"]) {
  const idp = await startIdp({ clients: ["bench"], alg });
  try {
    const token = request(await idp.clientToken("bench", RESOURCE, "mcp:tools"));
    const auth = oidcAuthenticate({ issuer: idp.issuer, audience: RESOURCE, requiredScopes: ["mcp:tools"] });
    const start = performance.now();
    const caller = await auth.authenticate(token);
    const first = performance.now() - start;
    if (!caller) throw new Error("the token was refused");
    rows.push([
      `JWT ${alg}, a token seen before`,
      `${first.toFixed(1)} ms (metadata + keys fetched, jose loaded)`,
      (await perCall(() => auth.authenticate(token))).toFixed(2),
    ]);
    // A new token each time: its signature checked (the keys cached).
    const fresh = await Promise.all(
      Array.from({ length: FRESH }, () => idp.clientToken("bench", RESOURCE, "mcp:tools").then(request)),
    );
    const started = performance.now();
    for (const t of fresh) await auth.authenticate(t);
    rows.push([
      `JWT ${alg}, a new token (signature checked)`,
      "-",
      (((performance.now() - started) * 1000) / FRESH).toFixed(2),
    ]);
  } finally {
    await idp.stop();
  }
}

console.log(`| check | first request | µs per request (N=${N}) |\n|---|---|---|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
