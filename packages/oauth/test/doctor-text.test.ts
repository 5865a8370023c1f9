// doctorReportLines: a diagnosis as the lines `mcp auth doctor` prints (moved from the CLI; its end-to-end test stays in apps/cli/test).
import { describe, expect, it } from "vitest";
import { doctorReportLines, type DoctorReport } from "../src/index.js";

const report: DoctorReport = {
  server: "http://127.0.0.1:1/mcp",
  ok: false,
  steps: [
    { step: "challenge", status: "pass", clause: "RFC 6750 §3", advice: "401 with a challenge" },
    { step: "resource-metadata", status: "warn", clause: "RFC 9728 §3", advice: "none published", detail: "tried x" },
    { step: "pkce", status: "fail", clause: "RFC 7636 §4.2", advice: "no S256" },
    { step: "dpop", status: "skip", clause: "RFC 9449", advice: "Bearer", detail: "not shown for a skip" },
  ],
};

describe("doctorReportLines", () => {
  it("one line per step, names padded to one width; the detail and clause under a warning or failing step only", () => {
    expect(doctorReportLines(report)).toEqual([
      "Sign-in to http://127.0.0.1:1/mcp: a step fails",
      "  pass  challenge          401 with a challenge",
      "  warn  resource-metadata  none published",
      "                           tried x",
      "                           RFC 9728 §3",
      "  FAIL  pkce               no S256",
      "                           RFC 7636 §4.2",
      "  skip  dpop               Bearer",
    ]);
  });

  it("marks and details through the style given, the mark with its status (the padding counts the plain mark)", () => {
    const lines = doctorReportLines(
      { ...report, ok: true, steps: report.steps.slice(1, 2) },
      { mark: (text, status) => `<${status}:${text}>`, detail: (text) => `[${text}]` },
    );
    expect(lines).toEqual([
      "Sign-in to http://127.0.0.1:1/mcp: no step fails",
      "  <warn:warn>  resource-metadata  none published",
      "                           [tried x]",
      "                           [RFC 9728 §3]",
    ]);
  });
});
