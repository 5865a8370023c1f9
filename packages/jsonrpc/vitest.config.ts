import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "jsonrpc", include: ["test/**/*.test.ts"] },
});
