import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "tools/reliability", "tools/runtimes", "scripts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
