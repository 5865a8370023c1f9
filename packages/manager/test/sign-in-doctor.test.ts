// diagnoseSignIn (`mcp auth doctor`'s doctor) against the official SDK's authorization server on
// loopback: a bare URL and a configured server, the trace file written (mode 600) and counted;
// the CLI's end-to-end tests stay in apps/cli/test/auth-doctor.test.ts.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { startSdkOAuthServer, type SdkOAuthServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnoseSignIn } from "../src/index.js";

let sdk: SdkOAuthServer;
let dir: string;
beforeAll(async () => {
  sdk = await startSdkOAuthServer();
  dir = mkdtempSync(join(tmpdir(), "mcp-sign-in-doctor-"));
});
afterAll(async () => {
  await sdk?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const registrations = (requests: { url: string; method?: string }[]): number =>
  requests.filter((r) => r.method === "POST" && new URL(r.url).pathname.endsWith("/register")).length;

describe("diagnoseSignIn", () => {
  it(
    "a URL: the report, and the trace of every request written as { server, requests } with mode 600",
    { timeout: 60_000 },
    async () => {
      const traceFile = join(dir, "url.json");
      const { report, traced } = await diagnoseSignIn(sdk.url, undefined, { traceFile, register: false });
      expect(report).toMatchObject({ server: sdk.url, ok: true });
      expect(statSync(traceFile).mode & 0o777).toBe(0o600);
      const written = JSON.parse(readFileSync(traceFile, "utf8")) as { server: string; requests: { url: string }[] };
      expect(written.server).toBe(sdk.url);
      expect(written.requests).toHaveLength(traced);
      expect(traced).toBeGreaterThan(0);
      expect(registrations(written.requests)).toBe(0); // register: false reached the doctor
      expect(report.steps.find((s) => s.step === "client-identification")?.advice).toBe(
        "Dynamic registration is offered (not tried)",
      );
    },
  );

  it(
    "a trace file already there, readable by others, is made mode 600 before the trace is written in it",
    { timeout: 60_000 },
    async () => {
      const traceFile = join(dir, "existing.json");
      writeFileSync(traceFile, "old\n", { mode: 0o644 });
      expect(statSync(traceFile).mode & 0o777).toBe(0o644);
      const { traced } = await diagnoseSignIn(sdk.url, undefined, { traceFile, register: false });
      expect(statSync(traceFile).mode & 0o777).toBe(0o600);
      expect((JSON.parse(readFileSync(traceFile, "utf8")) as { requests: unknown[] }).requests).toHaveLength(traced);
    },
  );

  it(
    "a configured server: its config is the one diagnosed; no trace file unless asked, and none counted",
    { timeout: 60_000 },
    async () => {
      const config = { type: "http", url: sdk.url, oauth: { clientId: "pre-registered-id" } } as MCPServerConfig;
      const { report, traced } = await diagnoseSignIn("docs", config);
      expect(traced).toBe(0);
      expect(report.server).toBe(sdk.url);
      expect(report.steps.find((s) => s.step === "client-identification")?.advice).toBe(
        "A pre-registered client id is configured",
      );
    },
  );
});
