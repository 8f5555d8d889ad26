/**
 * What this session has seen of each file: the bytes as it last read or wrote them. The stale
 * guard compares the file on disk with them; one store per toolset (keyed by its ToolContext),
 * shared by read, write, edit and apply_patch.
 */
import type { ToolContext } from "@clawtools/core";

/** Files larger than this are not remembered (no guard for them, as before; a read of a huge file stays a page). */
export const MAX_SEEN_BYTES = 1024 * 1024;

export interface SeenFiles {
  /** The text as this session last saw it, or undefined when it never read or wrote the file. */
  get(abs: string): Promise<string | undefined>;
  /** Remembers what this session saw (a promise: a read records without waiting). */
  set(abs: string, text: string | Promise<string | undefined> | undefined): void;
  forget(abs: string): void;
  /** How many times this exact refusal was given before (counting this one). */
  refused(message: string): number;
}

export function createSeenFiles(): SeenFiles {
  const seen = new Map<string, Promise<string | undefined>>();
  const refusals = new Map<string, number>();
  return {
    get: (abs) => seen.get(abs) ?? Promise.resolve(undefined),
    set(abs, text) {
      const p = Promise.resolve(text).catch(() => undefined);
      seen.set(abs, p);
    },
    forget: (abs) => void seen.delete(abs),
    refused(message) {
      const n = (refusals.get(message) ?? 0) + 1;
      refusals.set(message, n);
      return n;
    },
  };
}

const bySession = new WeakMap<object, SeenFiles>();

/** The store of the toolset `ctx` belongs to (one per context object). */
export function seenFilesOf(ctx: ToolContext): SeenFiles {
  const store = bySession.get(ctx) ?? createSeenFiles();
  bySession.set(ctx, store);
  return store;
}
