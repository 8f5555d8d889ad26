import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The OpenClaw release the tests run against, and where CI installs it (with Node 24 beside it). */
export const OPENCLAW_VERSION = "2026.9.6";

export interface OpenclawInstall {
  /** A Node >= 24 binary (OpenClaw needs node:sqlite). */
  node: string;
  /** `openclaw.mjs` of the installed package. */
  entry: string;
}

function cacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "clawtools-ci");
}

/**
 * The installed OpenClaw and the Node 24 it runs under, or the reason it cannot run here (a test
 * file skips with that reason). `OPENCLAW_NODE` / `OPENCLAW_ENTRY` point elsewhere.
 */
export function findOpenclaw(env: NodeJS.ProcessEnv = process.env): OpenclawInstall | { skip: string } {
  const cache = cacheDir(env);
  const node = env.OPENCLAW_NODE || path.join(cache, "node24", "node_modules", "node", "bin", "node");
  const entry =
    env.OPENCLAW_ENTRY ||
    path.join(cache, `openclaw-${OPENCLAW_VERSION}`, "node_modules", "openclaw", "openclaw.mjs");
  if (!existsSync(node))
    return { skip: `no Node 24 binary at ${node} (.ci/run installs it; or set OPENCLAW_NODE)` };
  if (!existsSync(entry))
    return {
      skip: `openclaw@${OPENCLAW_VERSION} is not installed at ${entry} (.ci/run installs it with npm install --ignore-scripts under Node 24; or set OPENCLAW_ENTRY)`,
    };
  return { node, entry };
}
