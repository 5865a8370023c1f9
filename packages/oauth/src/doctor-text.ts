// A diagnosis (`diagnoseAuthorization`) as lines a person reads: one per step, its detail and clause under a failing or warning one.
import type { DoctorReport } from "./doctor.js";
import type { DoctorStatus } from "./doctor-step.js";

/** How {@link doctorReportLines} marks its parts (each plain when not given), e.g. a terminal's colors. */
export interface DoctorReportStyle {
  /** A step's mark (`pass`, `warn`, `FAIL`, `skip`), given its status. */
  mark?: (text: string, status: DoctorStatus) => string;
  /** A step's detail and clause. */
  detail?: (text: string) => string;
}

const MARKS: Record<DoctorStatus, string> = { pass: "pass", warn: "warn", fail: "FAIL", skip: "skip" };
const plain = (text: string): string => text;

/**
 * The report as lines: the server and whether a step fails, then each step (its mark, name and
 * advice, names padded to one width), with the detail and the spec clause under a `fail` or `warn`.
 *
 * @example
 * console.log(doctorReportLines(await diagnoseAuthorization("https://example.com/mcp")).join("\n"));
 */
export function doctorReportLines(report: DoctorReport, style: DoctorReportStyle = {}): string[] {
  const { mark = plain, detail = plain } = style;
  const lines = [`Sign-in to ${report.server}: ${report.ok ? "no step fails" : "a step fails"}`];
  const width = Math.max(...report.steps.map((s) => s.step.length));
  const under = `  ${" ".repeat(8 + width)}`;
  for (const s of report.steps) {
    lines.push(`  ${mark(MARKS[s.status], s.status)}  ${s.step.padEnd(width)}  ${s.advice}`);
    if (s.status === "fail" || s.status === "warn") {
      if (s.detail) lines.push(`${under}${detail(s.detail)}`);
      lines.push(`${under}${detail(s.clause)}`);
    }
  }
  return lines;
}
