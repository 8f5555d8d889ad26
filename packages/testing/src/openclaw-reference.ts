import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The OpenClaw release side-by-side tests compare with (CI installs it with Node 24 beside it). */
export const OPENCLAW_REFERENCE_VERSION = "2026.9.6";

export interface OpenclawReference {
  /** A Node >= 24 binary (OpenClaw needs it). */
  node: string;
  /** The installed package's `dist` folder. */
  dist: string;
}

/**
 * The installed OpenClaw and the Node 24 it runs under, or the reason it cannot run here (a test
 * skips with it). `OPENCLAW_NODE` / `OPENCLAW_ENTRY` (its `openclaw.mjs`) point elsewhere.
 */
export function findOpenclawReference(
  env: NodeJS.ProcessEnv = process.env,
): OpenclawReference | { skip: string } {
  const cache = path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "clawtools-ci");
  const node = env.OPENCLAW_NODE || path.join(cache, "node24", "node_modules", "node", "bin", "node");
  const entry =
    env.OPENCLAW_ENTRY ||
    path.join(cache, `openclaw-${OPENCLAW_REFERENCE_VERSION}`, "node_modules", "openclaw", "openclaw.mjs");
  if (!existsSync(node))
    return { skip: `no Node 24 binary at ${node} (.ci/run installs it; or set OPENCLAW_NODE)` };
  if (!existsSync(entry))
    return {
      skip: `openclaw@${OPENCLAW_REFERENCE_VERSION} is not installed at ${entry} (.ci/run installs it)`,
    };
  return { node, dist: path.join(path.dirname(entry), "dist") };
}

// Loaded before each script: `input` (the JSON given), `chunk(prefix, marker)` (the exports of
// the dist chunk whose name starts with `prefix` and whose text holds `marker`, by their source
// names: chunk names are content hashes, export names are single letters) and `reply(value)`.
const PRELUDE = `
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const DIST = process.env.OPENCLAW_DIST;
const input = JSON.parse(readFileSync(0, "utf8"));
async function chunk(prefix, marker, dir = "") {
  const folder = join(DIST, dir);
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix) || !/\\.m?js$/.test(name)) continue;
    const text = readFileSync(join(folder, name), "utf8");
    if (!text.includes(marker)) continue;
    const mod = await import(pathToFileURL(join(folder, name)).href);
    const out = { ...mod };
    const list = /export \\{([^}]*)\\};?\\s*$/.exec(text);
    for (const pair of list ? list[1].split(",") : []) {
      const [local, alias] = pair.trim().split(/\\s+as\\s+/);
      if (alias && local) out[local] = mod[alias];
    }
    return out;
  }
  throw new Error("no OpenClaw chunk " + prefix + "* holds " + marker);
}
const reply = (value) => process.stdout.write(JSON.stringify(value));
`;

/**
 * Runs `script` (an ES module body, top-level await allowed) under OpenClaw's Node with `input`
 * and answers what it passed to `reply(...)`. One process per call: batch the cases.
 */
export function runOpenclawReference<T>(
  ref: OpenclawReference,
  script: string,
  input: unknown,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(ref.node, ["--no-warnings", "--input-type=module", "-e", `${PRELUDE}\n${script}`], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, OPENCLAW_DIST: ref.dist },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let err = "";
    // whole bytes first: a chunk may end inside a character
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const out = Buffer.concat(chunks).toString("utf8");
      if (code !== 0)
        return reject(new Error(`OpenClaw reference script exited ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(out) as T);
      } catch {
        reject(
          new Error(`OpenClaw reference script replied no JSON: ${out.slice(0, 500)} ${err.slice(-1000)}`),
        );
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}
