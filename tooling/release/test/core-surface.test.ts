/**
 * Core's main entry is what a plugin author writing a tool needs (issue 36): the tool contract,
 * schemas and parameters, results and errors, plugins, the registry and createToolset. Everything
 * else (policy, safety, time, state, …) is a subpath. Before the split the main entry gave 391
 * names, internals included; this holds it under MAX_MAIN_NAMES, and every subpath wired as the
 * others are (source condition, types, a build entry, the publish-time exports).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "../src/workspace.js";

/** The main entry's bound: 96 names at the split; a name added past it belongs in a subpath. */
const MAX_MAIN_NAMES = 100;

const core = path.join(root, "packages", "core");
const manifest = JSON.parse(readFileSync(path.join(core, "package.json"), "utf8")) as {
  exports: Record<string, { "@clawtools/source": string; types: string; default: string } | string>;
  publishConfig: { exports: Record<string, unknown> };
};
const entries = Object.entries(manifest.exports).filter(
  (entry): entry is [string, { "@clawtools/source": string; types: string; default: string }] =>
    typeof entry[1] === "object",
);

/** The names a source entry exports, types and values alike. */
function exportedNames(...files: string[]): string[][] {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  return files.map((file) => {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    return symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
  });
}

describe("@clawtools/core's public surface", () => {
  it(`gives at most ${MAX_MAIN_NAMES} names from the main entry, and the rest from subpaths`, () => {
    const files = entries.map(([, e]) => path.join(core, e["@clawtools/source"]));
    const names = exportedNames(...files);
    const main = names[0]!;
    expect(entries[0]![0]).toBe(".");
    expect(main.length).toBeGreaterThan(50);
    expect(main.length).toBeLessThanOrEqual(MAX_MAIN_NAMES);
    // what a tool's author reaches for is in the main entry; what an engine uses is not
    expect(main).toEqual(
      expect.arrayContaining([
        "AgentTool",
        "Type",
        "jsonResult",
        "ToolInputError",
        "definePlugin",
        "ToolRegistry",
      ]),
    );
    for (const internal of ["applyToolPolicyPipeline", "openInWorkspace", "systemClock", "wrapTool"])
      expect(main).not.toContain(internal);
    // each subpath gives something
    for (const [i, [key]] of entries.entries()) expect([key, names[i]!.length > 0]).toEqual([key, true]);
  }, 60_000);

  it("wires every subpath alike: source, types and default, a build entry, the same at publish time", () => {
    const tsdown = readFileSync(path.join(core, "tsdown.config.ts"), "utf8");
    for (const [key, e] of entries) {
      const stem = e["@clawtools/source"].replace(/^\.\/src\//, "").replace(/\.ts$/, "");
      expect([key, existsSync(path.join(core, e["@clawtools/source"]))]).toEqual([key, true]);
      expect(e).toEqual({
        "@clawtools/source": `./src/${stem}.ts`,
        types: `./dist/${stem}.d.ts`,
        default: `./dist/${stem}.js`,
      });
      expect([key, tsdown.includes(`"src/${stem}.ts"`)]).toEqual([key, true]);
      expect(manifest.publishConfig.exports[key]).toEqual({ types: e.types, default: e.default });
    }
  });
});
