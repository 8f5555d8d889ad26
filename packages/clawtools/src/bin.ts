#!/usr/bin/env node
/**
 * `npx clawtools`: the package named clawtools runs the clawtools command, which lives in
 * @clawtools/cli. The CLI is an optional peer (installing the library pulls in no section and no
 * CLI): when it is installed next to clawtools it runs in this process; otherwise npm fetches the
 * CLI of this same version and runs it, as npx would.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

/** Set for the fetched CLI, so a CLI that still cannot be found is an error, never a loop. */
const FETCHED = "CLAWTOOLS_CLI_FETCHED";
/** Not a literal: the CLI is an optional peer, resolved at run time, never bundled or type-checked here. */
const CLI_BIN: string = "@clawtools/cli/bin";

function cliMissing(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException;
  return e?.code === "ERR_MODULE_NOT_FOUND" && /'@clawtools\/cli(\/bin)?'/.test(e.message);
}

function fetchAndRun(args: string[]): void {
  const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const child = spawn(
    npm,
    ["exec", "--yes", `--package=@clawtools/cli@${version}`, "--", "clawtools", ...args],
    {
      stdio: "inherit",
      env: { ...process.env, [FETCHED]: "1" },
    },
  );
  child.on("error", (error) => {
    process.stderr.write(
      `clawtools: cannot run ${npm} to fetch @clawtools/cli@${version}: ${error.message}\n`,
    );
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

try {
  await import(CLI_BIN);
} catch (error) {
  if (!cliMissing(error)) throw error;
  if (process.env[FETCHED]) {
    process.stderr.write(
      "clawtools: the clawtools command is in @clawtools/cli, which is not installed: npm install @clawtools/cli\n",
    );
    process.exitCode = 1;
  } else {
    fetchAndRun(process.argv.slice(2));
  }
}
