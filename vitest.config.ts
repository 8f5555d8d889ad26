import { defineConfig } from "vitest/config";

// Every package is tested from source: the custom export condition points
// workspace imports at src/ so no build is needed before `pnpm test`.
const conditions = ["@clawtools/source", "node", "import", "module", "default"];

const include = [
  "{packages,plugins,adapters,backends,apps}/*/{src,test}/**/*.test.ts",
  "tooling/release/test/**/*.test.ts",
];
const exclude = ["**/node_modules/**", "**/dist/**"];

// Test files that need a process of their own: they check what a fresh import loads (a module
// once loaded by another file stays loaded) or replace modules with vi.mock. Every other file
// shares its worker's process with the files before it, which saves a process start and a fresh
// import of the workspace per file (a few minutes of a CI run).
const ownProcess = [
  "packages/core/src/schema-check.test.ts",
  "packages/core/src/safety/redact.test.ts",
  "packages/core/src/safety/url/guarded-fetch.test.ts",
  "plugins/fs/test/lazy-sharp.test.ts",
  "plugins/runtime/test/hardening.test.ts",
  "plugins/web/test/lazy-load.test.ts",
  "adapters/ai-sdk/test/ai7/**/*.test.ts",
];

const project = (name: string, isolate: boolean, files: { include: string[]; exclude: string[] }) => ({
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
    name,
    ...files,
    isolate,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CI runs two test runs side by side on 2 cores: a condition polled for gets 10 s, not 1 s
    expect: { poll: { timeout: 10_000 } },
    pool: "forks" as const,
    // files share a process: what a test stubs in the environment is put back after it
    unstubEnvs: true,
    unstubGlobals: true,
  },
});

export default defineConfig({
  test: {
    projects: [
      project("shared", false, { include, exclude: [...exclude, ...ownProcess] }),
      project("isolated", true, { include: ownProcess, exclude }),
    ],
    // a loopback broker that lends real OpenClaw Gateways: one boot serves every Gateway test
    // file (the root's globalSetup runs once and its values reach every project)
    globalSetup: ["backends/gateway/test/gateway-broker.setup.ts"],
  },
});
