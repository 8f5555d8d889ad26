import { type FsBridge, type ToolContext, ToolUnavailableError } from "@clawtools/core";
import { withWriteLocks } from "@clawtools/core/safety";
import { type FileState, type Journal, journalFor } from "@clawtools/core/journal";
import { createNodeBridge, isNodeBridge } from "./bridge/node-bridge.js";
import { resolveToolPath } from "./paths.js";
import { type SeenFiles, seenFilesOf } from "./stale/seen-files.js";

/** Per absolute path, the bytes a tool read before its change and the bytes it wrote. */
export type KnownBytes = Map<string, { before?: string | Uint8Array; after?: string | Uint8Array }>;

/** Options shared by every fs tool; `ctx.config.fs` supplies defaults. */
export interface FsToolOptions {
  /** Refuse paths outside the workspace root (default true). */
  workspaceOnly?: boolean;
  /** Overrides ctx.root / ctx.workspaceDir. */
  root?: string;
  /** Overrides ctx.bridge; default is the local disk under root. */
  bridge?: FsBridge;
  /** What this session has seen of each file (default: one store per ToolContext, shared by the fs tools). */
  seen?: SeenFiles;
  /** Told of the journal a tool records into (the section's dispose releases them). */
  onJournal?: (journal: Journal) => void;
}

export interface FsEnv {
  root: string;
  bridge: FsBridge;
  workspaceOnly: boolean;
  /** What this session last read or wrote of each file: the stale guard's reference. */
  seen: SeenFiles;
  /** The undo journal (local disk with a state directory only). */
  journal: Journal | undefined;
  /**
   * Runs `run`, which changes `paths`, recording their states before and after in the journal.
   * `known` holds bytes the tool already has under its write lock (what it read before, what it
   * wrote after a run that completed): they are hashed, not read again.
   */
  journalled<T>(tool: string, paths: string[], run: () => Promise<T>, known?: KnownBytes): Promise<T>;
  resolve(input: string): string;
  /**
   * Runs `run` holding the write lock of every file in `paths` (absolute, from `resolve`), keyed
   * by the file's identity: its verified real path on the local disk, so a symlink alias and the
   * real name share one lock, in every tool and every toolset of the process. Other bridges key
   * by the absolute path.
   */
  withWriteLock<T>(paths: string[], run: () => Promise<T>): Promise<T>;
}

export function resolveFsEnv(ctx: ToolContext, options: FsToolOptions = {}): FsEnv {
  const fromConfig = (ctx.config?.fs ?? {}) as FsToolOptions;
  const root = options.root ?? fromConfig.root ?? ctx.root ?? ctx.workspaceDir;
  if (!root) throw new ToolUnavailableError("no workspace root (set context.workspaceDir or context.root)");
  const workspaceOnly = options.workspaceOnly ?? fromConfig.workspaceOnly ?? true;
  const bridge = options.bridge ?? ctx.bridge ?? createNodeBridge(root, { workspaceOnly });
  const journal = ctx.stateDir && isNodeBridge(bridge) ? journalFor(bridge.root, ctx.stateDir) : undefined;
  if (journal) options.onJournal?.(journal);
  const lockKey = (abs: string) =>
    isNodeBridge(bridge) ? bridge.lockKey({ filePath: abs }) : Promise.resolve(`fs-bridge:${abs}`);
  return {
    root,
    bridge,
    workspaceOnly,
    seen: options.seen ?? seenFilesOf(ctx),
    journal,
    async journalled(tool, paths, run, known) {
      if (!journal) return run();
      const before: FileState[] = [];
      for (const p of paths) before.push(await journal.capture(p, known?.get(p)?.before));
      // recorded whether or not the call completed: a change that half happened is undoable too
      let completed = false;
      try {
        const result = await run();
        completed = true;
        return result;
      } finally {
        const changes = [];
        for (const [k, abs] of paths.entries())
          changes.push({
            abs,
            before: before[k]!,
            after: await journal.capture(abs, completed ? known?.get(abs)?.after : undefined),
          });
        await journal.record(tool, changes, ctx.sessionKey ? { session: ctx.sessionKey } : {});
      }
    },
    resolve: (input) => resolveToolPath(input, root, workspaceOnly),
    withWriteLock(paths, run) {
      // two levels, always in this order (so never a cycle): the paths as spelled, taken at call
      // time, keep calls through one spelling in call order; the identities, found by a walk,
      // serialise calls through different spellings of one file
      return withWriteLocks(
        paths.map((p) => `fs-call:${p}`),
        async () => withWriteLocks(await Promise.all(paths.map(lockKey)), run),
      );
    },
  };
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
