import { defineConfig } from "tsdown";

export default defineConfig({
  // stdio is an entry of its own: `clawtools serve` answers its opening before loading the SDK
  // task-host too: serve makes its task host without loading the SDK
  entry: ["src/index.ts", "src/http-origin.ts", "src/stdio.ts", "src/task-host.ts"],
  format: "esm",
  dts: true,
  clean: true,
  platform: "node",
  target: "node20",
  // package.json exports point at .js / .d.ts
  fixedExtension: false,
});
