import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalEmbedder, type IndexRecovery, MemoryIndex } from "../src/index.js";
import { details, memoryTools, tempDir, workspace } from "./helpers.js";

/** A workspace with enough notes that the index spans many pages. */
function notes(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++)
    files[`memory/n${i}.md`] = `# Note ${i}\n\nmarker${i} ${"lorem ipsum dolor sit amet ".repeat(150)}\n`;
  files["MEMORY.md"] = "The backup job runs nightly at 02:00.\n";
  return workspace(files);
}

const corruptions = {
  "a bad header": (file: string) => {
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.from("definitely not SQLite"), 0, 16, 0);
    closeSync(fd);
  },
  "random bytes": (file: string) => writeFileSync(file, randomBytes(statSync(file).size)),
  "a truncated file": (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2)),
} as const;

const reasons = {
  "a bad header": "file is not a database",
  "random bytes": "file is not a database",
  "a truncated file": "file is truncated (",
};

describe("a corrupt index heals", () => {
  for (const [kind, corrupt] of Object.entries(corruptions)) {
    it(`${kind}: moved aside with a warning, rebuilt from the markdown files, and the call answered`, async () => {
      const ws = notes();
      const dbPath = path.join(tempDir(), "memory", "main.sqlite");
      const first = new MemoryIndex({ workspaceDir: ws, dbPath, embedder: createLocalEmbedder() });
      const built = await first.sync();
      first.close();
      expect(existsSync(`${dbPath}-wal`)).toBe(false);
      corrupt(dbPath);

      const recoveries: IndexRecovery[] = [];
      const index = new MemoryIndex({
        workspaceDir: ws,
        dbPath,
        embedder: createLocalEmbedder(),
        onRecovery: (r) => recoveries.push(r),
      });
      const report = await index.sync();
      expect(report).toMatchObject({ added: built.added, chunks: built.chunks });
      expect(report.recovered).toEqual(recoveries[0]);
      expect(recoveries).toHaveLength(1);
      expect(recoveries[0]!.reason).toContain(reasons[kind as keyof typeof reasons]);
      expect(path.dirname(recoveries[0]!.movedTo)).toBe(path.dirname(dbPath));
      expect(existsSync(recoveries[0]!.movedTo)).toBe(true);
      expect((await index.search("marker7")).hits[0]?.path).toBe("memory/n7.md");
      index.close();
    });
  }

  it("pages overwritten in the middle: found when a call reaches them, healed, and the call answered", async () => {
    const ws = notes();
    const dbPath = path.join(tempDir(), "memory", "main.sqlite");
    const first = new MemoryIndex({ workspaceDir: ws, dbPath, embedder: createLocalEmbedder() });
    const built = await first.sync();
    first.close();
    const size = statSync(dbPath).size;
    const fd = openSync(dbPath, "r+");
    // every page after the first: the header still looks healthy, the b-trees do not
    writeSync(fd, randomBytes(size - 4096), 0, size - 4096, 4096);
    closeSync(fd);
    const recoveries: IndexRecovery[] = [];
    const index = new MemoryIndex({
      workspaceDir: ws,
      dbPath,
      embedder: createLocalEmbedder(),
      onRecovery: (r) => recoveries.push(r),
    });
    const report = await index.sync();
    expect(report).toMatchObject({ added: built.added, chunks: built.chunks });
    expect(recoveries).toHaveLength(1);
    expect(report.recovered).toEqual(recoveries[0]);
    expect((await index.search("marker7")).hits[0]?.path).toBe("memory/n7.md");
    index.close();
  });

  it("memory_search answers on a corrupt index and says it was rebuilt", async () => {
    const ws = notes();
    const first = memoryTools(ws);
    await first.search.execute("1", { query: "backup job" });
    await first.dispose();
    const dbPath = path.join(first.stateDir, "memory", "main.sqlite");
    corruptions["random bytes"](dbPath);

    const { search } = memoryTools(ws, {}, { stateDir: first.stateDir });
    const r = details(await search.execute("2", { query: "when does the backup job run", minScore: 0 }));
    expect(r.results[0].path).toBe("MEMORY.md");
    const moved = readdirSync(path.dirname(dbPath)).find((f) => f.startsWith("main.sqlite.corrupt-"));
    expect(moved).toBeDefined();
    expect(r.warning).toBe(
      `The memory index was corrupt (file is not a database); it was moved to ${path.join(path.dirname(dbPath), moved!)} and rebuilt from the memory files.`,
    );
  });
});
