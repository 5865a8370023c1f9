// Certificates made by the tests themselves (openssl, on every Debian machine): a private CA and
// server certificates it signs for 127.0.0.1 and localhost, one already expired and one for
// another host, plus a self-signed one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificates {
  dir: string;
  /** The private CA's certificate (PEM file path). */
  caFile: string;
  /** Valid for 127.0.0.1 and localhost, signed by the CA. */
  server: { key: string; cert: string };
  /** Signed by the CA for 127.0.0.1, but no longer valid. */
  expired: { key: string; cert: string };
  /** Signed by the CA for another host name only. */
  otherHost: { key: string; cert: string };
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: "pipe" });
}

/** Makes a CA and its server certificates in a new temporary folder. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "mcp-certs-"));
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=MCP Test CA",
    ],
    dir,
  );
  const issue = (name: string, subject: string, altNames: string, days: string): { key: string; cert: string } => {
    openssl(
      [
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.csr`,
        "-subj",
        `/CN=${subject}`,
      ],
      dir,
    );
    writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${altNames}\n`);
    openssl(
      [
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        `${name}.pem`,
        "-days",
        days,
        "-extfile",
        `${name}.ext`,
      ],
      dir,
    );
    return {
      key: readFileSync(join(dir, `${name}.key`), "utf8"),
      cert: readFileSync(join(dir, `${name}.pem`), "utf8"),
    };
  };
  const server = issue("server", "127.0.0.1", "IP:127.0.0.1,DNS:localhost", "2");
  // Valid from now until now: expired a second later.
  const expired = issue("expired", "127.0.0.1", "IP:127.0.0.1,DNS:localhost", "0");
  const otherHost = issue("other", "mcp.example.org", "DNS:mcp.example.org", "2");
  return {
    dir,
    caFile: join(dir, "ca.pem"),
    server,
    expired,
    otherHost,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
