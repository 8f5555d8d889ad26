/**
 * What this session has seen of each file: the bytes as it last read or wrote them. The stale
 * guard compares the file on disk with them; one store per toolset (keyed by its ToolContext),
 * shared by read, write, edit and apply_patch.
 */
import type { ToolContext } from "@clawtools/core";
import { type LineDigest, lineDigest } from "./line-digest.js";

/** Files larger than this are remembered by a digest of their lines, not whole. */
export const MAX_SEEN_BYTES = 1024 * 1024;
/** Files larger than this are not remembered at all (no guard for them; the journal copies no more either). */
export const MAX_DIGEST_BYTES = 64 * 1024 * 1024;

/** What this session saw of a file: its text, or for a file over MAX_SEEN_BYTES the digest of its lines. */
export type Seen = { text: string; digest?: undefined } | { text?: undefined; digest: LineDigest };

type SeenInput = string | LineDigest | undefined;

export interface SeenFiles {
  /** What this session last saw of the file, or undefined when it never read or wrote it. */
  get(abs: string): Promise<Seen | undefined>;
  /** Remembers what this session saw (a promise: a read records without waiting). */
  set(abs: string, seen: SeenInput | Promise<SeenInput>): void;
  forget(abs: string): void;
  /** How many times this exact refusal was given before (counting this one). */
  refused(message: string): number;
}

/** A text over MAX_SEEN_BYTES (a write, an edit of a big file) is kept as its digest; over MAX_DIGEST_BYTES not at all. */
function asSeen(input: SeenInput): Seen | undefined {
  if (input === undefined) return undefined;
  if (typeof input !== "string") return { digest: input };
  if (input.length > MAX_DIGEST_BYTES) return undefined;
  return input.length > MAX_SEEN_BYTES ? { digest: lineDigest(input) } : { text: input };
}

export function createSeenFiles(): SeenFiles {
  const seen = new Map<string, Promise<Seen | undefined>>();
  const refusals = new Map<string, number>();
  return {
    get: (abs) => seen.get(abs) ?? Promise.resolve(undefined),
    set(abs, input) {
      seen.set(
        abs,
        Promise.resolve(input).then(asSeen, () => undefined),
      );
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
