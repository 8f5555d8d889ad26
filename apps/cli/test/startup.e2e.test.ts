import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(cliDir, "dist", "bin.js");
const recorder = path.join(cliDir, "test", "fixtures", "record-modules.mjs");

/** Runs the built CLI and returns every module URL it loaded. */
function modulesLoadedBy(args: string[]): { status: number | null; stdout: string; modules: string[] } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "clawtools-modules-")), "loaded.txt");
  const run = spawnSync(process.execPath, ["--import", recorder, bin, ...args], {
    encoding: "utf8",
    env: { ...process.env, RECORD_MODULES: file },
  });
  return { status: run.status, stdout: run.stdout, modules: readFileSync(file, "utf8").split("\n") };
}

describe("clawtools --version / --help start light", () => {
  beforeAll(() => {
    if (!existsSync(bin))
      execFileSync("pnpm", ["turbo", "run", "build", "--filter=@clawtools/cli..."], {
        cwd: path.resolve(cliDir, "../.."),
        stdio: "ignore",
      });
  }, 400_000);

  for (const args of [["--version"], ["--help"], ["-v"]]) {
    it(`${args.join(" ")} loads only the CLI's own files: no section, no MCP server, no SDK`, () => {
      const { status, modules } = modulesLoadedBy(args);
      expect(status).toBe(0);
      // Node's own modules (node:module for the bundle's require shim) cost nothing to load
      const foreign = modules.filter(
        (url) => url && !url.startsWith("node:") && !url.startsWith(`file://${path.join(cliDir, "dist")}/`),
      );
      expect(foreign).toEqual([]);
    });
  }

  it("serve --help loads neither the MCP server nor its SDK", () => {
    const { status, stdout, modules } = modulesLoadedBy(["serve", "--help"]);
    expect(status).toBe(0);
    expect(stdout).toContain("Usage: clawtools serve");
    expect(
      modules.filter((url) => /modelcontextprotocol|\/packages\/mcp\/dist\/index\.js/.test(url)),
    ).toEqual([]);
  });
});
