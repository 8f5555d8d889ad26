import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { wrapExternalContent } from "@clawtools/core";

// Pages too long for the answer go whole into a private file; old ones are pruned.

/** Spilled pages older than this are removed when the next one is written. */
const SPILL_KEEP_MS = 24 * 60 * 60_000;

/** Best effort: spilled pages do not pile up in the state directory. */
async function pruneSpills(dir: string, keep: string): Promise<void> {
  const cutoff = Date.now() - SPILL_KEEP_MS;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    if (file === keep || !name.endsWith(".md")) continue;
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile() && info.mtimeMs < cutoff) await unlink(file).catch(() => {});
  }
}

/**
 * The whole text, wrapped, in a private file under the state directory (a temp dir without one);
 * spills older than a day are removed.
 */
export async function spillToFile(stateDir: string | undefined, text: string): Promise<string> {
  const dir = stateDir
    ? path.join(stateDir, "web-fetch")
    : await mkdtemp(path.join(tmpdir(), "clawtools-web-fetch-"));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const file = path.join(dir, `${stamp}-${randomBytes(4).toString("hex")}.md`);
  await writeFile(file, wrapExternalContent(text, { source: "Web Fetch", includeWarning: true }), {
    mode: 0o600,
  });
  if (stateDir) await pruneSpills(dir, file);
  return file;
}
