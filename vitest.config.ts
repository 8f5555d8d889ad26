import { defineConfig } from "vitest/config";

// Every package is tested from source: the custom export condition points
// workspace imports at src/ so no build is needed before `pnpm test`.
const conditions = ["@clawtools/source", "node", "import", "module", "default"];

export default defineConfig({
  resolve: { conditions },
  // vitest hands the SSR conditions to Node as --conditions, which applies to require() too:
  // "import" there makes a CommonJS package (pg) require its dependency's ESM build. Vite adds
  // import/require per import itself, so it is left out of this list only.
  ssr: {
    resolve: {
      conditions: conditions.filter((c) => c !== "import"),
      externalConditions: ["@clawtools/source"],
    },
  },
  test: {
    include: [
      "{packages,plugins,adapters,backends,apps}/*/{src,test}/**/*.test.ts",
      "tooling/release/test/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // a loopback broker that lends real OpenClaw Gateways: one boot serves every Gateway test file
    globalSetup: ["backends/gateway/test/gateway-broker.setup.ts"],
  },
});
