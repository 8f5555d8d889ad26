#!/usr/bin/env node
// The workspace's bin target: it exists before `pnpm build`, so linking it never fails on a fresh
// install. The published package's bin is dist/bin.js (publishConfig.bin).
import("../dist/bin.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !/dist[\\/]bin\.js/.test(error.message)) throw error;
  process.stderr.write(
    "clawtools: cannot start: dist/bin.js is missing; in a checkout, build first (pnpm -w build)\n",
  );
  process.exitCode = 1;
});
