/**
 * The state of one workspace path as the undo journal keeps it: nothing, a file (its mode and
 * the content-addressed copy of its bytes), a symlink (its target) or a directory (its mode).
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from "node:fs";
import { chmod, mkdir, readFile, readlink, rename, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { replaceInDir, writeFileAtomically } from "../state/atomic-write.js";
import { JournalError } from "./errors.js";

export type FileState =
  | null
  | { type: "file"; mode: number; hash: string; size: number }
  | { type: "symlink"; target: string }
  | { type: "dir"; mode: number };

export function sameState(a: FileState, b: FileState): boolean {
  if (a === null || b === null) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === "file" && b.type === "file") return a.hash === b.hash && a.mode === b.mode;
  if (a.type === "symlink" && b.type === "symlink") return a.target === b.target;
  return a.type === "dir" && b.type === "dir" && a.mode === b.mode;
}

/** An lstat that never throws for a missing path; synchronous: one call costs less than a thread-pool trip. */
const lstatNow = (abs: string) => {
  try {
    return lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
};

/** Files up to this size are read in place (see readSmallNow). */
const READ_NOW_MAX = 64 * 1024;
const READ_NOW_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The bytes of a small regular file, read with synchronous calls: a scan's first capture reads
 * every file of the workspace, and readFile's four thread-pool trips a file (open, fstat, read,
 * close) cost several times the reads. The path is opened without following a link and without
 * blocking (a FIFO swapped in since the lstat cannot hold the loop), and the opened file must
 * be a regular file that fits: null when the path is gone or no longer a regular file (as a
 * scan a moment later would find it), undefined when the caller should read it the usual way
 * (a link swapped in, a larger file, anything unexpected).
 */
function readSmallNow(abs: string): Buffer | null | undefined {
  let fd: number;
  try {
    fd = openSync(abs, READ_NOW_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? null : undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > READ_NOW_MAX) return undefined;
    // one byte more than the size: a file that grew since is read the usual way
    const buffer = Buffer.allocUnsafe(st.size + 1);
    let filled = 0;
    for (let n = 1; n > 0 && filled < buffer.length; filled += n)
      n = readSync(fd, buffer, filled, buffer.length - filled, null);
    return filled > st.size ? undefined : buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/**
 * Content-addressed copies under `<journal>/blobs`: one per distinct content, written once.
 * A copy is not flushed to the disk (see the journal's durability note): one a power cut left
 * short is written again by the next put of its content, and one whose bytes do not hash to its
 * name is never restored (`verified`).
 */
/** Contents up to this size are remembered with their hash by `put(data, true)` (a few at a time). */
const REMEMBER_MAX = 1024 * 1024;
const REMEMBERED = 4;

export class BlobStore {
  /**
   * Copies of the last few contents a tool passed with their hashes: an edit's bytes before are
   * most often the previous call's bytes after, and comparing bytes costs far less than hashing.
   */
  private recent: Array<{ data: Buffer; hash: string }> = [];

  constructor(readonly dir: string) {}

  /** sha256 of `data`, taken from `recent` when the same bytes were hashed lately. */
  private hashOf(data: Buffer, remember: boolean): string {
    for (const r of this.recent) if (r.data.length === data.length && r.data.equals(data)) return r.hash;
    const hash = sha256(data);
    if (remember && data.length <= REMEMBER_MAX) {
      // a copy: the caller's buffer may change after this call
      this.recent.unshift({ data: Buffer.from(data), hash });
      this.recent.length = Math.min(this.recent.length, REMEMBERED);
    }
    return hash;
  }

  pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  /**
   * Stores `data`; returns its hash and how many bytes were newly written (0 when already kept).
   * `remember`: keep a copy with its hash for the next puts (bytes a tool holds, see captureKnownState).
   */
  async put(data: Buffer, remember = false): Promise<{ hash: string; added: number }> {
    const hash = this.hashOf(data, remember);
    const at = this.pathOf(hash);
    if (statSync(at, { throwIfNoEntry: false })?.size === data.length) return { hash, added: 0 };
    await writeFileAtomically(at, data);
    return { hash, added: data.length };
  }

  get(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash));
  }

  /** The copy's bytes when they hash to its name; a missing or damaged copy is a JournalError naming `rel`. */
  async verified(hash: string, rel: string): Promise<Buffer> {
    const data = await this.get(hash).catch(() => undefined);
    if (data === undefined || sha256(data) !== hash)
      throw new JournalError(
        `the journal's copy of ${rel} (${hash.slice(0, 12)}) is ${data === undefined ? "missing" : "damaged"}; nothing was restored`,
      );
    return data;
  }

  has(hash: string): boolean {
    return statSync(this.pathOf(hash), { throwIfNoEntry: false }) !== undefined;
  }

  remove(hash: string): Promise<void> {
    return rm(this.pathOf(hash), { force: true });
  }
}

/** The state of `abs` on disk now (a file's bytes stored as a blob); `added` counts new blob bytes. */
export async function captureState(
  abs: string,
  blobs: BlobStore,
): Promise<{ state: FileState; added: number }> {
  const st = lstatNow(abs);
  if (!st) return { state: null, added: 0 };
  if (st.isDirectory()) return { state: { type: "dir", mode: st.mode & 0o7777 }, added: 0 };
  if (!st.isSymbolicLink() && !st.isFile()) return { state: null, added: 0 };
  // another process may rename or remove the path between the lstat and the read (a temp file
  // renamed into place): then it is absent, as a scan a moment later would have found it
  const now = st.isFile() && st.size <= READ_NOW_MAX ? readSmallNow(abs) : undefined;
  if (now === null) return { state: null, added: 0 };
  const content =
    now ??
    (await (st.isSymbolicLink() ? readlink(abs) : readFile(abs)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
      throw error;
    }));
  if (content === null) return { state: null, added: 0 };
  if (typeof content === "string") return { state: { type: "symlink", target: content }, added: 0 };
  const { hash, added } = await blobs.put(content);
  return { state: { type: "file", mode: st.mode & 0o7777, hash, size: st.size }, added };
}

/**
 * As captureState, for a caller that holds the bytes it just read or wrote at `abs` under its
 * write lock: they are hashed instead of read again when `abs` is a regular file of their size
 * (anything else, a link or another size, is captured from the disk).
 */
export async function captureKnownState(
  abs: string,
  blobs: BlobStore,
  data: string | Uint8Array,
): Promise<{ state: FileState; added: number }> {
  const bytes =
    typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const st = lstatNow(abs);
  if (!st?.isFile() || st.size !== bytes.length) return captureState(abs, blobs);
  const { hash, added } = await blobs.put(bytes, true);
  return { state: { type: "file", mode: st.mode & 0o7777, hash, size: st.size }, added };
}

/** Puts `abs` into `state` (atomically for files and links); a directory is only created or removed when empty. */
export async function applyState(abs: string, state: FileState, blobs: BlobStore, rel = abs): Promise<void> {
  const st = lstatNow(abs);
  if (state === null) {
    if (!st) return;
    if (st.isDirectory()) await rm(abs, { recursive: true, force: true });
    else await rm(abs, { force: true });
    return;
  }
  if (state.type === "dir") {
    if (st && !st.isDirectory()) await rm(abs, { force: true });
    await mkdir(abs, { recursive: true });
    await chmod(abs, state.mode);
    return;
  }
  await mkdir(path.dirname(abs), { recursive: true });
  if (st?.isDirectory()) await rm(abs, { recursive: true, force: true });
  const dir = path.dirname(abs);
  if (state.type === "file") {
    await replaceInDir({ real: dir, via: dir }, path.basename(abs), await blobs.verified(state.hash, rel), {
      mode: state.mode,
      exactMode: true,
    });
    return;
  }
  // a link is made beside the path and renamed over it, so the path is never missing
  const tmp = path.join(dir, `.${path.basename(abs)}.${randomBytes(4).toString("hex")}.undo`);
  await symlink(state.target, tmp);
  await rename(tmp, abs);
}
