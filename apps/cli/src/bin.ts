#!/usr/bin/env node
import module from "node:module";

// Node 22.1 and later keep compiled code between runs when asked: every module the CLI loads, its
// sections and playwright-core included (NODE_COMPILE_CACHE names the directory, default under
// the temp directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off). On Node 20 the ui section keeps
// playwright-core's itself.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// `clawtools list | head` closes the pipe early: that is not an error
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

/** In a checkout, a package that was not built yet is the usual reason the CLI cannot start. */
function notBuilt(error: unknown): string | undefined {
  const e = error as NodeJS.ErrnoException & { url?: string };
  if (e?.code !== "ERR_MODULE_NOT_FOUND" || !/\/dist\//.test(e.message)) return undefined;
  const missing = /Cannot find (?:module|package) '([^']+)'/.exec(e.message)?.[1] ?? "a built module";
  return `clawtools: cannot start: ${missing} is missing; in a checkout, build first (pnpm -w build)\n`;
}

import("./cli.js").then(
  ({ main }) =>
    main(process.argv.slice(2)).then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        process.stderr.write(`clawtools: ${String(error)}\n`);
        process.exitCode = 1;
      },
    ),
  (error) => {
    process.stderr.write(notBuilt(error) ?? `clawtools: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
