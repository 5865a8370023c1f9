import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "apps/*",
      "tools/reliability",
      "tools/runtimes",
      "scripts",
      // The gateway's suites once more with its fast path off: every request through the SDK server
      // (packages/gateway/test/app.ts reads the variable), so both paths pass the same tests.
      {
        extends: "./packages/gateway/vitest.config.ts",
        root: "./packages/gateway",
        test: { name: "gateway-sdk-path", exclude: ["test/fast.test.ts", "test/readme-example.test.ts"], env: { MCP_GATEWAY_TEST_PATH: "sdk" } },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
