import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "manager", include: ["test/**/*.test.ts"] },
});
