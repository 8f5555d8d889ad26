/**
 * One of each mechanism, in core (issue 36): one cross-process file lock and one atomic writer.
 * A second lock (a `<file>.lock` created exclusively) or a second writer (a rename of a file
 * into place) anywhere else in production code fails this test; the renames that are not
 * writes are listed, each with its reason.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sources } from "../src/sources.js";
import { publishablePackages, root } from "../src/workspace.js";

const LOCK = "packages/core/src/safety/file-lock.ts";
const WRITER = "packages/core/src/state/atomic-write.ts";

const RENAMES_THAT_ARE_NOT_WRITES: Record<string, string> = {
  [LOCK]: "a stale lock moved aside; `replace` renames the lock file, which holds the new file",
  [WRITER]: "the writer",
  "packages/core/src/state/atomic-json.ts": "a corrupt state file set aside",
  "packages/core/src/safety/workspace-entries.ts": "the fs bridge's rename of a user's file",
  "packages/core/src/journal/file-state.ts": "undo restoring a symlink (no bytes to write)",
  "plugins/memory/src/store/database.ts": "a corrupt index set aside",
  "plugins/sessions/src/store/json-file.ts": "a corrupt file set aside",
};

/** A rename call (`rename(`, `fs.rename(`, `renameSync(`), not a method of a bridge. */
const RENAME = /(?<![\w.])(?:fs\.)?rename(?:Sync)?\s*\(/;
const EXCLUSIVE = /"wx"|O_EXCL/;

function productionLines(): Array<{ rel: string; text: string; lines: string[] }> {
  const out: Array<{ rel: string; text: string; lines: string[] }> = [];
  for (const { dir } of publishablePackages())
    for (const file of sources(path.join(root, dir, "src"))) {
      const text = readFileSync(file, "utf8");
      const lines = text.split("\n").filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l));
      out.push({ rel: path.relative(root, file), text, lines });
    }
  return out;
}

describe("one of each mechanism", () => {
  const files = productionLines();

  it("the scans see what they look for", () => {
    expect(RENAME.test("await rename(tmp, file);")).toBe(true);
    expect(RENAME.test("renameSync(lock, file)")).toBe(true);
    expect(RENAME.test("await fs.rename(a, b)")).toBe(true);
    expect(RENAME.test("async rename({ from, to }) {")).toBe(true);
    expect(RENAME.test("await bridge.rename({ from: 'a' })")).toBe(false);
    expect(files.some((f) => f.rel === LOCK)).toBe(true);
  });

  it("one cross-process file lock: only core's creates a `.lock` file exclusively", () => {
    const locks = files
      .filter((f) => f.text.includes(".lock") && f.lines.some((l) => EXCLUSIVE.test(l)))
      .map((f) => f.rel);
    expect(locks).toEqual([LOCK]);
  });

  it("one atomic writer: a file is renamed into place only by core's writer", () => {
    const found: string[] = [];
    for (const f of files) {
      if (RENAMES_THAT_ARE_NOT_WRITES[f.rel]) continue;
      for (const line of f.lines)
        if (RENAME.test(line) && !/^\s*async rename\(/.test(line)) found.push(`${f.rel}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });
});
