/**
 * `pnpm typecheck` checks the whole workspace as one program (tsconfig.workspace.json). That is
 * only the same check as every package's own `tsc -p` while each package's tsconfig.json asks for
 * the same compiler options and names no file the workspace program leaves out.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root, workspacePackages } from "../src/workspace.js";

function parse(file: string): ts.ParsedCommandLine {
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file), undefined, file);
}

/** The options that decide how code is checked (not where a config file sits). */
function checking(options: ts.CompilerOptions): ts.CompilerOptions {
  const { configFilePath: _at, pathsBasePath: _base, ...rest } = options;
  return rest;
}

const workspace = parse(path.join(root, "tsconfig.workspace.json"));
const checked = new Set(workspace.fileNames.map((f) => path.resolve(f)));
const configs = workspacePackages()
  .map(({ dir }) => path.join(root, dir, "tsconfig.json"))
  .filter((file) => existsSync(file));

describe("the workspace typecheck", () => {
  it("finds every package's tsconfig.json", () => {
    expect(configs.length).toBeGreaterThan(20);
  });

  for (const file of configs) {
    const name = path.relative(root, file);
    it(`covers ${name}: the same options, and every file it names`, () => {
      const own = parse(file);
      expect(own.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, "\n"))).toEqual([]);
      expect(checking(own.options)).toEqual(checking(workspace.options));
      const missing = own.fileNames.map((f) => path.resolve(f)).filter((f) => !checked.has(f));
      expect(missing, `add these to tsconfig.workspace.json's include`).toEqual([]);
    });
  }
});
