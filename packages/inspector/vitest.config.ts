import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "inspector", include: ["test/**/*.test.ts"] },
});
