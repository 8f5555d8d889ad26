/**
 * One write lock per file, shared by every writer in the process (all sections, and every copy
 * of this module that might be loaded): calls holding the same key run one after another.
 * Key it by the file's identity — the verified real path from `resolveInWorkspace` — so aliases
 * (a symlinked directory, `./a` vs `a`) share one lock. Several keys are always taken in sorted
 * order, so two callers that lock overlapping sets never wait on each other in a cycle.
 */
const REGISTRY = Symbol.for("@clawtools/core/write-locks");
type Tails = Map<string, Promise<void>>;
const globalSlot = globalThis as unknown as Record<symbol, Tails | undefined>;
const tails: Tails = globalSlot[REGISTRY] ?? new Map();
globalSlot[REGISTRY] = tails;

async function acquire(key: string): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous;
  return () => {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

/** Runs `run` while holding every key's lock (taken in sorted order, duplicates once). */
export async function withWriteLocks<T>(keys: Iterable<string>, run: () => Promise<T>): Promise<T> {
  const ordered = [...new Set(keys)].sort();
  const releases: Array<() => void> = [];
  try {
    for (const key of ordered) releases.push(await acquire(key));
    return await run();
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/** Runs `run` while holding the lock of one file. */
export function withWriteLock<T>(key: string, run: () => Promise<T>): Promise<T> {
  return withWriteLocks([key], run);
}

/** Keys currently locked or waited for (diagnostics and tests). */
export function heldWriteLocks(): string[] {
  return [...tails.keys()];
}
