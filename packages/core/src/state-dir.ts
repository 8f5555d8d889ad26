import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ResolveStateDirOptions {
  /** The workspace the state belongs to; one state directory per workspace. */
  workspaceDir: string;
  /** An explicit directory (`--state-dir`, `config.stateDir`) wins over the default. */
  stateDir?: string;
  /** Environment to read `XDG_STATE_HOME` / `CLAWTOOLS_STATE_DIR` from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Where derived state (indexes, session stores, job files, spilled output) lives: never the
 * user's workspace. Default: `$XDG_STATE_HOME/clawtools/<workspace name>-<hash>` (XDG's default
 * state home is `~/.local/state`), so two workspaces never share a store.
 */
export function resolveStateDir(options: ResolveStateDirOptions): string {
  const env = options.env ?? process.env;
  const explicit = options.stateDir ?? env.CLAWTOOLS_STATE_DIR;
  if (explicit) return path.resolve(options.workspaceDir, explicit);
  let workspace = path.resolve(options.workspaceDir);
  try {
    workspace = realpathSync(workspace);
  } catch {
    // a workspace that does not exist yet keeps its lexical path
  }
  const home =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(os.homedir(), ".local", "state");
  const hash = createHash("sha256").update(workspace).digest("hex").slice(0, 12);
  const name =
    path
      .basename(workspace)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "root";
  return path.join(home, "clawtools", `${name}-${hash}`);
}
