/**
 * The tarballs a release would upload, checked the way a newcomer meets them: what is inside,
 * what the manifest points at, and an install from the tarballs into a fresh project outside the
 * workspace with npm, running the README's library example under Node and tsc.
 * Needs `pnpm build` first (the tarballs ship dist/).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, packAll, Scratch } from "../src/tarballs.js";
import {
  hasKey,
  manifestTargets,
  type PackageManifest,
  publishablePackages,
  root,
  run,
  tarballFiles,
  tarballManifest,
} from "../src/workspace.js";

const REPOSITORY = "https://github.com/clawtools/clawtools";
const packages = publishablePackages();
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");

let tarballs = new Map<string, string>();
const scratch = new Scratch();
const tempDir = (prefix: string) => scratch.dir(prefix);

/** The ```ts block that follows the README's "Use it as a library" heading. */
function readmeLibraryExample(): string {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("### Use it as a library");
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start < 0 || !match) throw new Error('README.md has no ```ts block under "### Use it as a library"');
  return match[1]!;
}

beforeAll(async () => {
  tarballs = await packAll(packages, tempDir("clawtools-tarballs-"));
}, 300_000);

// the fresh projects hold full node_modules trees: removing them takes a while on a busy machine
afterAll(() => scratch.removeAll(), 300_000);

describe("every publishable package", () => {
  it("is built, so its tarball has something to ship", () => {
    const unbuilt = packages
      .filter((p) => !existsSync(path.join(root, p.dir, "dist")))
      .map((p) => `${p.dir}/dist is missing: run pnpm build first`);
    expect(unbuilt).toEqual([]);
  });

  for (const { dir, manifest } of packages) {
    describe(manifest.name, () => {
      let files: string[];
      let packed: PackageManifest;
      beforeAll(async () => {
        const tarball = tarballs.get(manifest.name)!;
        files = await tarballFiles(tarball);
        packed = await tarballManifest(tarball);
      });

      it("ships the MIT licence, its README and only built code", () => {
        expect(files).toContain("LICENSE");
        expect(files).toContain("README.md");
        expect(files.filter((f) => f.startsWith("src/") || f.endsWith(".test.js"))).toEqual([]);
        const licence = readFileSync(path.join(root, dir, "LICENSE"), "utf8");
        expect(licence.split("\n").slice(0, 3)).toEqual([
          "MIT License",
          "",
          "Copyright (c) 2026 clawtools contributors",
        ]);
        expect(packed.license).toBe("MIT");
      });

      it("names its repository, homepage, issue tracker and public access", () => {
        expect(packed.repository).toEqual({ type: "git", url: `git+${REPOSITORY}.git`, directory: dir });
        expect(packed.homepage).toBe(`${REPOSITORY}/tree/main/${dir}#readme`);
        expect(packed.bugs).toEqual({ url: `${REPOSITORY}/issues` });
        expect(packed.publishConfig?.access).toBe("public");
      });

      it("exports ./package.json and the same entry points as in the workspace, without the source condition", () => {
        expect(hasKey(packed, "@clawtools/source")).toBe(false);
        expect(packed.exports?.["./package.json"]).toBe("./package.json");
        expect(Object.keys(packed.exports ?? {}).sort()).toEqual(Object.keys(manifest.exports ?? {}).sort());
      });

      it("contains every file its manifest points at", () => {
        const missing = manifestTargets(packed).filter((target) => !files.includes(target));
        expect(missing).toEqual([]);
      });

      it("depends on released versions, not workspace: links", () => {
        const ranges = Object.values({ ...packed.dependencies, ...packed.peerDependencies });
        expect(ranges.filter((range) => range.startsWith("workspace:"))).toEqual([]);
      });
    });
  }
});

describe("a fresh project outside the workspace", () => {
  it("installs @clawtools/core and @clawtools/fs from the tarballs with npm and runs the README's library example under Node and tsc", async () => {
    const project = tempDir("clawtools-fresh-");
    writeFileSync(
      path.join(project, "package.json"),
      `${JSON.stringify({ name: "fresh", private: true, type: "module" }, null, 2)}\n`,
    );
    writeFileSync(path.join(project, "README.md"), "# A fresh project\n");
    await npm(
      ["install", tarballs.get("@clawtools/core")!, tarballs.get("@clawtools/fs")!, "@types/node@^20.19.0"],
      project,
    );

    const example = readmeLibraryExample().replaceAll("/path/to/project", project);
    writeFileSync(
      path.join(project, "example.ts"),
      `${example}\nconsole.log(JSON.stringify({ tools: tools.map((t) => t.name), diagnostics: diagnostics.length, definitions: definitions.length, result, version: fsPlugin.version }));\n`,
    );
    const compilerOptions = { target: "ES2022", strict: true, skipLibCheck: false, types: ["node"] };
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          ...compilerOptions,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          outDir: "out",
        },
        files: ["example.ts"],
      }),
    );
    writeFileSync(
      path.join(project, "tsconfig.bundler.json"),
      JSON.stringify({
        compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "Bundler", noEmit: true },
        files: ["example.ts"],
      }),
    );
    // type-check as a Node (NodeNext) and as a bundler project, then run the emitted ESM
    await run(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: project });
    await run(process.execPath, [tsc, "-p", "tsconfig.bundler.json"], { cwd: project });
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project });
    const { stdout } = await run(process.execPath, [path.join(project, "out", "example.js")], {
      cwd: project,
    });
    const output = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      tools: string[];
      diagnostics: number;
      definitions: number;
      result: { content: Array<{ type: string; text?: string }>; isError?: boolean };
      version: string;
    };
    expect(output.tools).toEqual(expect.arrayContaining(["read", "write", "edit"]));
    expect(output.definitions).toBe(output.tools.length);
    expect(output.result.isError ?? false).toBe(false);
    expect(output.result.content[0]?.text).toContain("# A fresh project");
    // the version comes from the installed package.json, not a literal in the code
    const installed = JSON.parse(
      readFileSync(path.join(project, "node_modules", "@clawtools", "fs", "package.json"), "utf8"),
    ) as PackageManifest;
    expect(output.version).toBe(installed.version);
  }, 600_000);

  it("runs the clawtools command with npx clawtools once the clawtools package is installed", async () => {
    const project = tempDir("clawtools-npx-");
    writeFileSync(
      path.join(project, "package.json"),
      `${JSON.stringify({ name: "npx-project", private: true })}\n`,
    );
    // every tarball, so npm takes the workspace's sections from them and not the registry; the
    // native addons' build scripts are skipped (better-sqlite3 loads only when memory indexes)
    await npm(["install", "--ignore-scripts", ...tarballs.values()], project);
    const { stdout } = await run("npx", ["--no-install", "clawtools", "list", "--json"], {
      cwd: project,
      maxBuffer: 16 * 1024 * 1024,
    });
    const listed = JSON.parse(stdout) as { tools: Array<{ tool: string; available: boolean }> };
    expect(listed.tools.find((t) => t.tool === "read")?.available).toBe(true);
    // the clawtools package's own bin (npx picks it by the package's name)
    const umbrella = JSON.parse(
      readFileSync(path.join(project, "node_modules", "clawtools", "package.json"), "utf8"),
    ) as PackageManifest;
    expect(umbrella.bin).toEqual({ clawtools: "./dist/bin.js" });
    const direct = await run(
      process.execPath,
      [path.join(project, "node_modules", "clawtools", "dist", "bin.js"), "list", "--json"],
      { cwd: project, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(JSON.parse(direct.stdout)).toEqual(listed);
  }, 600_000);
});
