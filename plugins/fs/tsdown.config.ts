import { defineConfig } from "tsdown";
import { bundledLicences } from "../../tooling/build/bundled-licences.ts";

export default defineConfig({
  entry: ["src/index.ts"],
  format: "esm",
  dts: true,
  clean: true,
  platform: "node",
  target: "node20",
  // package.json exports point at .js / .d.ts
  fixedExtension: false,
  // jsdiff's `diffLines` is bundled into the JavaScript: importing "diff" loaded 19 files at every
  // start of the section, for one function used by edit. Declarations still import it by name.
  plugins: [bundledLicences()],
  deps: {
    alwaysBundle: (id, importer) =>
      (id === "diff" || id.startsWith("diff/")) && !/\.d\.[cm]?ts$/.test(importer ?? ""),
    onlyBundle: ["diff"],
  },
});
