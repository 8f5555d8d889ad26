import fs from "node:fs/promises";
import { randomHex } from "./random-hex.js";
import { type DirRef, entryPath } from "./workspace-walk.js";

/**
 * Temp files of atomic writes are named `.<first 32 characters of the name>.<12 hex>.clawtools-tmp`
 * and live beside their target. One left behind by a process killed mid-write is removed by the
 * next write into the same directory once it is older than {@link STALE_TEMP_MS}.
 */
export const TEMP_FILE_PATTERN = /^\..*\.[0-9a-f]{12}\.clawtools-tmp$/su;

/** Five minutes: far longer than any write takes between its last byte and its rename. */
export const STALE_TEMP_MS = 5 * 60_000;

/** A directory (by real path) is swept at most once a minute per process. */
const SWEEP_EVERY_MS = 60_000;
const swept = new Map<string, number>();

export function tempNameFor(name: string): string {
  const stem = [...name].slice(0, 32).join("");
  return `.${stem}.${randomHex(6)}.clawtools-tmp`;
}

/** Removes this project's stale temp files from a verified directory (best effort). */
export async function sweepStaleTemps(
  dir: Pick<DirRef, "real" | "via">,
  now = Date.now(),
): Promise<string[]> {
  const key = dir.real;
  const last = swept.get(key);
  if (last !== undefined && now - last < SWEEP_EVERY_MS) return [];
  if (swept.size > 10_000) swept.clear();
  swept.set(key, now);
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fs.readdir(dir.via);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!TEMP_FILE_PATTERN.test(name)) continue;
    const at = entryPath(dir, name);
    const st = await fs.lstat(at).catch(() => null);
    if (!st?.isFile() || now - st.mtimeMs < STALE_TEMP_MS) continue;
    try {
      await fs.unlink(at);
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** Forget when directories were swept (tests). */
export function resetTempSweeps(): void {
  swept.clear();
}
