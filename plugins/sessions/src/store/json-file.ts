import { readFileSync, renameSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { acquireFileLock, withWriteLock } from "@clawtools/core/safety";

type Signature = string;

function signature(file: string): Signature | undefined {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : undefined;
}

/** The file's bytes: compared as they are with the bytes last seen, decoded only to be parsed. */
function readBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

interface Pending<T> {
  change: (value: T) => unknown;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** Counters for tests and benchmarks: how many changes were asked for, and how many writes they took. */
export interface JsonFileStats {
  /** Changes handed to `mutate`. */
  changes: number;
  /** Files renamed in (a batch whose changes left the text as it was makes none). */
  writes: number;
  /** Times the file was parsed inside the lock (it had changed since this process last saw it). */
  parses: number;
  /** Times `read` parsed the file (it was not what this process last saw or is writing). */
  readParses: number;
}

/** Options of a JSON file: who hears that an unreadable file was set aside. */
export interface JsonFileOptions {
  /** Default: a process warning (`CLAWTOOLS_STORE_SET_ASIDE`). */
  onWarning?: (message: string) => void;
}

const isPlainObject = (value: unknown): value is object =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The file's bytes as a JSON object, or why they are not one. */
function parseObject<T>(bytes: Buffer): { value: T } | { error: string } {
  try {
    const value = JSON.parse(bytes.toString("utf8")) as unknown;
    return isPlainObject(value) ? { value: value as T } : { error: "not a JSON object" };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const defaultWarning = (message: string) =>
  process.emitWarning(message, { code: "CLAWTOOLS_STORE_SET_ASIDE" });

/**
 * A JSON object file replaced whole on every write, under the in-process queue and the
 * cross-process lock file: the new text is written into the lock file, which is then renamed over
 * the file (one file created per write, not a lock and a temp file).
 *
 * Group commit: changes asked for while a write is in flight wait, and all of them are applied
 * and written together by the next write, under one lock, one JSON.stringify and one rename.
 * Each change still succeeds or fails on its own (it runs on its own shallow copy, so a change
 * that throws leaves nothing behind), and `mutate` resolves only once the write holding its change
 * is renamed in. Changes must replace the top-level values they change, never modify them in place.
 *
 * Reads are served from memory while the file is the one last parsed (its identity, size and
 * times unchanged). Writes never build on that check alone (another process's two same-size
 * writes within one timestamp tick onto a reused inode would pass it): inside the lock the file is
 * read and its bytes compared with the bytes this process last wrote or parsed (a memcmp, no
 * decoding), and decoded and parsed only if they differ; a read does the same when the stat has
 * changed. The value returned by `read` is shared: never change it.
 *
 * The file operations inside the lock (read, lock file write, rename, stat) are synchronous: each
 * asynchronous call costs a trip through libuv's thread pool, which costs more than the call on a
 * loaded machine, and the JSON work on the same bytes blocks anyway. That includes the rename:
 * replacing an existing file makes ext4 start writing the new one out (auto_da_alloc), which
 * blocked this thread before too (in the close, when the lock file was first truncated to
 * nothing); done in the thread pool it cost two thread hand-offs more per write, and measured
 * side by side on a loaded machine a sub-agent's spawn → announce took 0.65-0.87x as long with
 * it synchronous. There is no fsync, as in OpenClaw's store: the rename makes every write all or
 * nothing, not durable across a power cut.
 *
 * A file that is not a JSON object (torn by hand, by a full disk, by another program) is stored
 * state, not trusted input: inside the lock it is renamed aside (`<file>.corrupt-<timestamp>`), a
 * warning names both files, and the file starts again empty, instead of every call failing.
 *
 * Why not core's `writeJsonAtomic` / `readJsonFile` (compared 2026-11-26): they are not better
 * here on any count. Atomicity is the same (a whole new file renamed over the old one); neither
 * fsyncs by default, and this store's files, like OpenClaw's, do not ask for it. The cross-process
 * lock is not in them: a caller would hold `withFileLock` around them, so a write would create a
 * lock file and a temp file (and sweep the directory for stale temps) where this creates one file,
 * through several more thread-pool trips: the write path this replaced cost +8 ms per sub-agent.
 * `readJsonFile` reads and parses on every call, where a list here is served from memory while a
 * stat says the file is unchanged, and its ordered index is kept with it.
 */
export class JsonFile<T extends object> {
  private cached: { sig: Signature | undefined; value: T; bytes: Buffer | undefined } | undefined;
  private dirMade = false;
  private queue: Pending<T>[] = [];
  private flushing: Promise<void> | undefined;
  readonly stats: JsonFileStats = { changes: 0, writes: 0, parses: 0, readParses: 0 };

  constructor(
    readonly file: string,
    private readonly empty: () => T,
    private readonly options: JsonFileOptions = {},
  ) {}

  async read(): Promise<T> {
    const sig = signature(this.file);
    if (sig === undefined) return this.empty();
    if (this.cached?.sig === sig) return this.cached.value;
    const bytes = readBytes(this.file);
    if (bytes === undefined) return this.empty();
    // another write of the very bytes last seen (the same value): nothing to parse
    if (this.cached?.bytes?.equals(bytes)) {
      this.cached = { ...this.cached, sig };
      return this.cached.value;
    }
    this.stats.readParses++;
    const parsed = parseObject<T>(bytes);
    if ("error" in parsed) {
      // set aside under the lock (another process may have just repaired it), then read again
      await this.mutate(() => {});
      return this.cached?.value ?? this.empty();
    }
    this.cached = { sig, value: parsed.value, bytes };
    return parsed.value;
  }

  /**
   * Applies `change` to the file's current value (in this process and others) and writes the
   * result, together with every change asked for while the previous write was in flight.
   */
  mutate<R>(change: (value: T) => R): Promise<R> {
    this.stats.changes++;
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ change, resolve: resolve as (r: unknown) => void, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    try {
      // changes asked for in the same tick as the first join its write
      await Promise.resolve();
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          await this.commit(batch);
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /** The file's value as it is now, parsed only if it is not the bytes this process last saw. */
  private current(): { value: T; bytes: Buffer | undefined } {
    const bytes = readBytes(this.file);
    if (bytes === undefined) return { value: this.empty(), bytes };
    if (this.cached?.bytes?.equals(bytes)) return { value: this.cached.value, bytes };
    this.stats.parses++;
    const parsed = parseObject<T>(bytes);
    if ("value" in parsed) return { value: parsed.value, bytes };
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(this.file, aside);
    (this.options.onWarning ?? defaultWarning)(
      `${this.file} could not be read (${parsed.error}); it was set aside as ${aside} and rebuilt empty`,
    );
    return { value: this.empty(), bytes: undefined };
  }

  private async commit(batch: Pending<T>[]): Promise<void> {
    if (!this.dirMade) {
      await mkdir(path.dirname(this.file), { recursive: true });
      this.dirMade = true;
    }
    const settled = await withWriteLock(this.file, async () => {
      const lock = await acquireFileLock(this.file);
      let replaced = false;
      try {
        const before = this.current();
        let value = before.value;
        const results: Array<{ ok: true; result: unknown } | { ok: false; error: unknown }> = [];
        for (const item of batch) {
          const draft = { ...value };
          try {
            results.push({ ok: true, result: item.change(draft) });
            value = draft;
          } catch (error) {
            results.push({ ok: false, error });
          }
        }
        const bytes = Buffer.from(JSON.stringify(value, null, 2));
        if (!before.bytes?.equals(bytes)) {
          replaced = true;
          lock.replace(bytes);
          this.stats.writes++;
        }
        this.cached = { sig: signature(this.file), value, bytes };
        return results;
      } finally {
        if (!replaced) lock.release();
      }
    });
    batch.forEach((item, i) => {
      const r = settled[i]!;
      if (r.ok) item.resolve(r.result);
      else item.reject(r.error);
    });
  }
}
