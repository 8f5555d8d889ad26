import { mkdir } from "node:fs/promises";
import path from "node:path";
import { withFileLock } from "../safety/file-lock.js";
import { readJsonFile, writeJsonAtomic } from "../state/atomic-json.js";

/** The file under the state directory that keeps "allow always" answers. */
export const APPROVALS_FILE = "approvals.json";

interface StoredApprovals {
  version: 1;
  /** `<tool>\u0000<key>` → when it was allowed (ISO time). */
  allowAlways: Record<string, string>;
}

function entryKey(tool: string, key: string): string {
  return `${tool}\u0000${key}`;
}

/**
 * "Allow always" answers. With a state directory they live in `<stateDir>/approvals.json`
 * (re-read on each check, so another toolset or process on the same directory sees them; written
 * atomically under a cross-process lock); without one, for this object's lifetime only. A file
 * that cannot be read or parsed counts as empty: the command is asked again (fail closed).
 */
export class ApprovalMemory {
  private readonly inMemory = new Set<string>();
  readonly file: string | undefined;

  constructor(stateDir?: string) {
    this.file = stateDir ? path.join(stateDir, APPROVALS_FILE) : undefined;
  }

  async has(tool: string, key: string): Promise<boolean> {
    const k = entryKey(tool, key);
    if (this.inMemory.has(k)) return true;
    if (!this.file) return false;
    return Object.hasOwn((await this.read()).allowAlways, k);
  }

  async remember(tool: string, key: string): Promise<void> {
    const k = entryKey(tool, key);
    this.inMemory.add(k);
    const file = this.file;
    if (!file) return;
    await mkdir(path.dirname(file), { recursive: true });
    await withFileLock(file, async () => {
      const stored = await this.read();
      stored.allowAlways[k] = new Date().toISOString();
      await writeJsonAtomic(file, stored);
    });
  }

  private async read(): Promise<StoredApprovals> {
    // torn or unreadable: nothing remembered, so the command is asked again
    const parsed = await readJsonFile<Partial<StoredApprovals> | null>(this.file!, {
      onCorrupt: "ignore",
    }).catch(() => undefined);
    const entries = parsed?.allowAlways;
    if (parsed?.version === 1 && entries && typeof entries === "object" && !Array.isArray(entries))
      return { version: 1, allowAlways: { ...entries } };
    return { version: 1, allowAlways: {} };
  }
}
