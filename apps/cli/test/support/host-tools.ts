// The official MCP clients the host-view tests drive (the conformance suite, the Inspector CLI):
// they need Node >= 22, so .ci/run installs them beside its Node 24 under ~/.cache/clawtools-ci,
// never as devDependencies. Keep these versions the same as .ci/run's.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

export const CONFORMANCE_VERSION = "0.2.0-alpha.12";
export const INSPECTOR_VERSION = "2.12.0";

export interface HostTool {
  /** The Node >= 22 binary to run it with. */
  node: string;
  /** Its entry script. */
  entry: string;
}

const cacheDir = (env: NodeJS.ProcessEnv) =>
  path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "clawtools-ci");

function find(
  env: NodeJS.ProcessEnv,
  what: string,
  folder: string,
  entry: string[],
): HostTool | { skip: string } {
  const cache = cacheDir(env);
  const node = path.join(cache, "node24", "node_modules", "node", "bin", "node");
  const script = path.join(cache, folder, "node_modules", ...entry);
  const missing = !existsSync(node)
    ? `no Node 24 binary at ${node}`
    : !existsSync(script)
      ? `${what} is not installed at ${script}`
      : undefined;
  if (!missing) return { node, entry: script };
  // CI installs both (.ci/run sets CI=true): there a missing one is a failure, not a skip
  const skip = `${missing} (.ci/run installs it under ${cache}; run its install steps once to test here)`;
  if (env.CI) throw new Error(`${skip}: CI must run this test`);
  return { skip };
}

/** `@modelcontextprotocol/conformance` as .ci/run installs it, or why it cannot run here. */
export const findConformance = (env: NodeJS.ProcessEnv = process.env) =>
  find(
    env,
    `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    `mcp-conformance-${CONFORMANCE_VERSION}`,
    ["@modelcontextprotocol", "conformance", "dist", "index.js"],
  );

/** `@modelcontextprotocol/inspector` (run with `--cli`) as .ci/run installs it, or why it cannot run here. */
export const findInspector = (env: NodeJS.ProcessEnv = process.env) =>
  find(env, `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`, `mcp-inspector-${INSPECTOR_VERSION}`, [
    "@modelcontextprotocol",
    "inspector",
    "clients",
    "launcher",
    "build",
    "index.js",
  ]);
