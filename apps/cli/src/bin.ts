#!/usr/bin/env node
import { main } from "./cli.js";

// `clawtools list | head` closes the pipe early: that is not an error
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`clawtools: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
