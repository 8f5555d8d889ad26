import { bundledLicences } from "../../tooling/build/bundled-licences.ts";
import { defineConfig, type TsdownPlugin } from "tsdown";

/**
 * What `clawtools serve` loads before it answers is bundled into the CLI's own files: the
 * umbrella's discovery and manifests (`clawtools`), the MCP adapter and its SDK with zod. Loading
 * them as separate packages meant resolving, linking and compiling some 150 files at every start.
 * @clawtools/core and the sections stay external: one copy of core per process (its write locks
 * and secrets registry are module state), and a section loads only when one of its tools is used.
 */
const BUNDLED = [/^clawtools(\/|$)/, /^@clawtools\/mcp(\/|$)/, /^@modelcontextprotocol\//, /^zod(\/|$)/];

const inDeclarations = (importer: string | undefined) => /\.d\.[cm]?ts$/.test(importer ?? "");

/**
 * A bundled package that does not resolve (its dist not built yet) would be left as an import of
 * a file that is missing at run time, without failing the build: fail it instead.
 */
const mustResolve: TsdownPlugin = {
  name: "clawtools-bundled-must-resolve",
  async resolveId(id, importer, options) {
    if (!BUNDLED.some((re) => re.test(id)) || inDeclarations(importer)) return null;
    const resolved = await this.resolve(id, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.external)
      this.error(
        `${id} (imported by ${importer}) does not resolve: build it before the CLI, which bundles it`,
      );
    return resolved;
  },
};

export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts"],
  format: "esm",
  dts: true,
  clean: true,
  platform: "node",
  target: "node20",
  // package.json exports point at .js / .d.ts
  fixedExtension: false,
  // the declaration build (importers ending in .d.ts) keeps importing the packages by name
  plugins: [mustResolve, bundledLicences()],
  deps: {
    alwaysBundle: (id, importer) =>
      BUNDLED.some((re) => re.test(id)) && !/\.d\.[cm]?ts$/.test(importer ?? ""),
    // anything else from node_modules landing in the bundle fails the build
    onlyBundle: [
      ...BUNDLED,
      // the MCP SDK's own dependencies
      "pkce-challenge",
      "eventsource-parser",
      "cross-spawn",
      "which",
      "isexe",
      "path-key",
      "shebang-command",
      "shebang-regex",
    ],
  },
});
