import { defineConfig } from "vitest/config";

// The fixtures of lacks.test.ts: run only by it (a vitest of their own), from source.
const conditions = ["@clawtools/source", "node", "import", "module", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@clawtools/source"] } },
  test: { include: ["*.fixture.ts"], pool: "forks", testTimeout: 30_000 },
});
