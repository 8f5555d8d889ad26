// Which modules a run of the built CLI loads: the start-up tests prove what stays unloaded.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bin, cliDir, fixtures } from "./cli.js";

const recorder = path.join(fixtures, "record-modules.mjs");

/** Runs the built CLI with `args` (and `input` on stdin, which then ends): its output and every module URL it loaded. */
export function modulesLoadedBy(
  args: string[],
  input?: string,
): { status: number | null; stdout: string; modules: string[] } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "clawtools-modules-")), "loaded.txt");
  const run = spawnSync(process.execPath, ["--import", recorder, bin, ...args], {
    encoding: "utf8",
    ...(input !== undefined ? { input } : {}),
    env: { ...process.env, RECORD_MODULES: file },
  });
  return { status: run.status, stdout: run.stdout, modules: readFileSync(file, "utf8").split("\n") };
}

/**
 * The CLI's own files that carry the MCP SDK or zod: the bundler marks each bundled module with
 * a region comment naming its path under node_modules.
 */
export function sdkChunks(modules: string[]): string[] {
  return modules.filter(
    (url) =>
      url.startsWith(`file://${path.join(cliDir, "dist")}/`) &&
      /node_modules\/\.pnpm\/(?:@modelcontextprotocol\+|zod@)/.test(readFileSync(fileURLToPath(url), "utf8")),
  );
}
