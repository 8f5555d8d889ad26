import { mkdir, readFile, realpath, rename } from "node:fs/promises";
import path from "node:path";
import { withWriteLock } from "../safety/write-lock.js";
import { replaceInDir } from "./atomic-write.js";

export interface WriteJsonOptions {
  /**
   * Flush the file and its directory to the disk before resolving, so the write survives a power
   * cut (default false: the rename alone makes the write all or nothing, not durable).
   */
  durable?: boolean | undefined;
  /** Permission bits of the file (default 0o600: state is private to its user). */
  mode?: number | undefined;
}

// The directory's real path keys the in-process lock, so aliases of one file share it.
async function lockKey(file: string): Promise<string> {
  const dir = path.dirname(path.resolve(file));
  const real = await realpath(dir).catch(() => dir);
  return `state-json:${path.join(real, path.basename(file))}`;
}

// Writers enter a file's lock in call order. Finding the key (mkdir, realpath) is I/O that can
// finish out of order, so calls do it one after another; a call only waits for the calls before it.
let entering: Promise<unknown> = Promise.resolve();
function enterInOrder(file: string, dir: string): Promise<string> {
  const key = entering.then(async () => {
    await mkdir(dir, { recursive: true });
    return lockKey(file);
  });
  entering = key.catch(() => undefined);
  return key;
}

/**
 * Replaces `file` with `value` as pretty JSON, whole or not at all: a temp file in the same
 * directory (`TEMP_FILE_PATTERN`), flushed when `durable`, renamed over the file. A process killed
 * mid-write leaves the old file and a temp file the next write there sweeps once stale. Writers
 * of one file in this process run one after another, in call order; across processes, hold a
 * file lock (`withFileLock`) around the read-modify-write.
 */
export async function writeJsonAtomic(
  file: string,
  value: unknown,
  options: WriteJsonOptions = {},
): Promise<void> {
  const text = JSON.stringify(value, null, 2);
  if (text === undefined)
    throw new TypeError(`writeJsonAtomic(${file}): the value is not JSON (${typeof value})`);
  const target = path.resolve(file);
  const dir = path.dirname(target);
  await withWriteLock(await enterInOrder(file, dir), () =>
    replaceInDir({ real: dir, via: dir }, path.basename(target), `${text}\n`, {
      mode: options.mode,
      syncFile: options.durable,
      syncDir: options.durable,
    }),
  );
}

// Under the write lock, and only if the file still holds the text that failed: a writer that
// replaced it meanwhile keeps its good file.
async function quarantine(file: string, text: string, reason: string): Promise<void> {
  await withWriteLock(await lockKey(file), async () => {
    const now = await readFile(file, "utf8").catch(() => undefined);
    if (now !== text) return;
    const aside = `${file}.corrupt-${Date.now()}`;
    await rename(file, aside);
    process.emitWarning(`${reason}; moved aside to ${aside}`, { code: "CLAWTOOLS_CORRUPT_STATE" });
  });
}

/** What `readJsonFile` does with a file that is there but not valid JSON (or fails `parse`). */
export type OnCorrupt<T> =
  /** Throw an error naming the file (the default: fail closed). */
  | "throw"
  /** Rename it aside to `<file>.corrupt-<ms>` and read as missing (state that starts over). */
  | "quarantine"
  /** Read as missing, leaving the file alone. */
  | "ignore"
  /** Decide: return a value to use, or throw. */
  | ((error: Error, file: string) => T | undefined);

export interface ReadJsonOptions<T> {
  onCorrupt?: OnCorrupt<T> | undefined;
  /** Checks the parsed value's shape; throws (counted as corrupt) or returns the typed value. */
  parse?: ((value: unknown) => T) | undefined;
}

/**
 * The parsed content of a JSON state file, or undefined when there is none. A file that does not
 * parse is handled by `onCorrupt`; any other read error (a directory, no permission) throws.
 */
export async function readJsonFile<T = unknown>(
  file: string,
  options: ReadJsonOptions<T> = {},
): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    return options.parse ? options.parse(value) : (value as T);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = new Error(`${file} is not a valid state file: ${reason}`, { cause });
    const onCorrupt = options.onCorrupt ?? "throw";
    if (onCorrupt === "ignore") return undefined;
    if (onCorrupt === "quarantine") {
      await quarantine(file, text, error.message);
      return undefined;
    }
    if (onCorrupt === "throw") throw error;
    return onCorrupt(error, file);
  }
}
