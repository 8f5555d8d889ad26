import { type FsBridge, type ToolContext, ToolUnavailableError } from "@clawtools/core";
import { createNodeBridge } from "./bridge/node-bridge.js";
import { resolveToolPath } from "./paths.js";

/** Options shared by every fs tool; `ctx.config.fs` supplies defaults. */
export interface FsToolOptions {
  /** Refuse paths outside the workspace root (default true). */
  workspaceOnly?: boolean;
  /** Overrides ctx.root / ctx.workspaceDir. */
  root?: string;
  /** Overrides ctx.bridge; default is the local disk under root. */
  bridge?: FsBridge;
}

export interface FsEnv {
  root: string;
  bridge: FsBridge;
  workspaceOnly: boolean;
  resolve(input: string): string;
}

export function resolveFsEnv(ctx: ToolContext, options: FsToolOptions = {}): FsEnv {
  const fromConfig = (ctx.config?.fs ?? {}) as FsToolOptions;
  const root = options.root ?? fromConfig.root ?? ctx.root ?? ctx.workspaceDir;
  if (!root) throw new ToolUnavailableError("no workspace root (set context.workspaceDir or context.root)");
  const workspaceOnly = options.workspaceOnly ?? fromConfig.workspaceOnly ?? true;
  const bridge = options.bridge ?? ctx.bridge ?? createNodeBridge(root, { workspaceOnly });
  return { root, bridge, workspaceOnly, resolve: (input) => resolveToolPath(input, root, workspaceOnly) };
}

/** Calls to the same path run one after another (a write never interleaves an edit). */
const queues = new Map<string, Promise<unknown>>();
export function withFileLock<T>(key: string, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(run, run);
  const settled = next.catch(() => {});
  queues.set(key, settled);
  settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
