import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "lite", include: ["test/**/*.test.ts"] },
});
