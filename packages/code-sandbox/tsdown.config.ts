import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts"],
  format: "esm",
  dts: true,
  clean: true,
  platform: "node",
  target: "node20",
  // package.json exports point at .js / .d.ts
  fixedExtension: false,
});
