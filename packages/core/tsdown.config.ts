import { bundledLicences } from "../../tooling/build/bundled-licences.ts";
import { defineConfig } from "tsdown";

export default defineConfig({
  // one entry per subpath export in package.json
  entry: [
    "src/index.ts",
    "src/policy/index.ts",
    "src/catalog.ts",
    "src/safety/index.ts",
    "src/time/index.ts",
    "src/state/index.ts",
    "src/journal/index.ts",
    "src/http/index.ts",
    "src/lifecycle/index.ts",
    "src/tasks/index.ts",
    "src/approvals/index.ts",
    "src/client/index.ts",
    "src/wrap/index.ts",
    "src/resources/index.ts",
    "src/prompts/index.ts",
    "src/providers/index.ts",
    "src/contracts/index.ts",
    "src/surface/index.ts",
    "src/testing/index.ts",
  ],
  format: "esm",
  dts: true,
  clean: true,
  platform: "node",
  target: "node20",
  // package.json exports point at .js / .d.ts
  fixedExtension: false,
  // bundled TypeBox keeps its licence beside the bundle
  plugins: [bundledLicences()],
  // The TypeBox builders core runs are bundled into its JavaScript: importing "@sinclair/typebox"
  // loads some 200 files, most of a cold start. Only `Type` builders run here (schemas carry
  // TypeBox's Symbol.for keys, so a section's own copy reads them alike). The declarations keep
  // importing "@sinclair/typebox" (an importer ending in .d.ts is the declaration build), so a
  // consumer's types still come from its one TypeBox.
  deps: {
    alwaysBundle: (id, importer) =>
      (id === "@sinclair/typebox" || id.startsWith("@sinclair/typebox/")) &&
      !/\.d\.[cm]?ts$/.test(importer ?? ""),
    onlyBundle: ["@sinclair/typebox"],
  },
});
