// docs/scaling.md's Kubernetes example (issue 52): its YAML block parses into the objects it says,
// and, where `kubectl` and a cluster context are present, `kubectl apply --dry-run=client` accepts it
// (a client dry run still asks the API server which kinds exist, so it needs a context). Where they
// are not, the dry run is skipped and the test's name says why.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";

const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const scaling = readFileSync(join(repoRoot, "docs", "scaling.md"), "utf8");

/** The one YAML block of the "A Kubernetes example" section. */
function manifest(): string {
  const section = scaling.slice(scaling.indexOf("### A Kubernetes example"));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/scaling.md: no ```yaml block after "### A Kubernetes example"');
  return block[1]!;
}

/** Why the dry run cannot run here, or undefined when it can. */
function whyNoKubectl(): string | undefined {
  const version = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8", timeout: 20_000 });
  if (version.error || version.status !== 0) return "`kubectl` is not on PATH";
  const context = spawnSync("kubectl", ["config", "current-context"], { encoding: "utf8", timeout: 20_000 });
  if (context.status !== 0 || context.stdout.trim() === "")
    return "`kubectl` has no current context (a client dry run still asks an API server which kinds exist)";
  return undefined;
}

describe("docs/scaling.md's Kubernetes manifest", () => {
  it("parses as YAML into a Secret, a Deployment with probes and a Service", () => {
    const documents = parseAllDocuments(manifest());
    for (const document of documents) expect(document.errors.map((e) => e.message)).toEqual([]);
    const objects = documents.map(
      (d) =>
        d.toJS() as {
          kind?: string;
          apiVersion?: string;
          metadata?: { name?: string };
          spec?: Record<string, unknown>;
        },
    );
    expect(objects.map((o) => o.kind)).toEqual(expect.arrayContaining(["Secret", "Deployment", "Service"]));
    for (const object of objects) {
      expect(object.apiVersion, `${object.kind}'s apiVersion`).toBeTypeOf("string");
      expect(object.metadata?.name, `${object.kind}'s name`).toBeTypeOf("string");
    }
    const deployment = objects.find((o) => o.kind === "Deployment") as {
      spec: {
        replicas: number;
        template: {
          spec: {
            containers: {
              livenessProbe?: { httpGet?: { path?: string } };
              readinessProbe?: { httpGet?: { path?: string } };
            }[];
          };
        };
      };
    };
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const container = deployment.spec.template.spec.containers[0]!;
    expect(container.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(container.readinessProbe?.httpGet?.path).toBe("/readyz");
  });

  const why = whyNoKubectl();
  it.skipIf(why !== undefined)(
    `kubectl apply --dry-run=client accepts it${why ? ` (skipped: ${why})` : ""}`,
    () => {
      const run = spawnSync("kubectl", ["apply", "--dry-run=client", "-f", "-"], {
        input: manifest(),
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/created \(dry run\)|configured \(dry run\)/);
    },
    90_000,
  );
});
