import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { withWriteLock } from "@clawtools/core";
import { withFileLock } from "./file-lock.js";

type Signature = string;

async function signature(file: string): Promise<Signature | undefined> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * A JSON object file replaced whole on every write (temp file + rename, under the in-process
 * queue and the cross-process lock file). Reads are served from memory while the file is the
 * one last parsed: every write renames a new file in, so its identity, size and times change,
 * whichever process wrote it. Writes always start from the file itself, so a stale read (another
 * process's two same-size writes within one timestamp tick onto a reused inode) can never be
 * written back. The value returned by `read` is shared: never change it.
 */
export class JsonFile<T extends object> {
  private cached: { sig: Signature; value: T } | undefined;
  private dirMade = false;

  constructor(
    readonly file: string,
    private readonly empty: () => T,
  ) {}

  async read(): Promise<T> {
    const sig = await signature(this.file);
    if (sig === undefined) return this.empty();
    if (this.cached?.sig === sig) return this.cached.value;
    const value = JSON.parse(await readFile(this.file, "utf8")) as T;
    this.cached = { sig, value };
    return value;
  }

  /** Read (always from the file: a write never builds on a cached copy), change and write as one step for every writer, in this process and others. */
  async mutate<R>(change: (value: T) => R): Promise<R> {
    if (!this.dirMade) {
      await mkdir(path.dirname(this.file), { recursive: true });
      this.dirMade = true;
    }
    return withWriteLock(this.file, () =>
      withFileLock(this.file, async () => {
        let value: T;
        try {
          value = JSON.parse(await readFile(this.file, "utf8")) as T;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          value = this.empty();
        }
        const result = change(value);
        const tmp = `${this.file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
        await writeFile(tmp, JSON.stringify(value, null, 2));
        await rename(tmp, this.file);
        const sig = await signature(this.file);
        this.cached = sig ? { sig, value } : undefined;
        return result;
      }),
    );
  }
}
