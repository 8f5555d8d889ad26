import { spawn } from "node:child_process";
import { linkSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalEmbedder, listMemoryFiles, MemoryIndex } from "../src/index.js";
import { details, memoryTools, tempDir, workspace } from "./helpers.js";

const SYMLINK = "a symlink; memory files are never read through links";

describe("memory_get never reads through a link", () => {
  it("refuses memory/ being a symlink to a directory outside the workspace", async () => {
    const outside = workspace({ "secret.md": "OUTSIDE SECRET\n" });
    const ws = workspace({ "MEMORY.md": "ok\n" });
    symlinkSync(outside, path.join(ws, "memory"));
    const { get } = memoryTools(ws);
    const r = await get.execute("1", { path: "memory/secret.md" });
    expect(r.isError).toBe(true);
    expect(details(r).error).toBe(`Symlink escapes sandbox root (${ws}): memory/secret.md -> ${outside}`);
  });

  it("refuses memory/ being a symlink to another directory of the workspace", async () => {
    const ws = workspace({ "private/notes.md": "private\n" });
    symlinkSync(path.join(ws, "private"), path.join(ws, "memory"));
    const { get } = memoryTools(ws);
    const r = await get.execute("1", { path: "memory/notes.md" });
    expect(details(r).error).toBe(
      "Refusing to read memory/notes.md: it is reached through a symlink; memory files are never read through links.",
    );
  });

  it("refuses a symlinked file and a hardlinked file inside memory/", async () => {
    const ws = workspace({ "secrets.md": "secret\n", "memory/ok.md": "fine\n" });
    symlinkSync(path.join(ws, "secrets.md"), path.join(ws, "memory", "link.md"));
    linkSync(path.join(ws, "secrets.md"), path.join(ws, "memory", "hard.md"));
    const { get } = memoryTools(ws);
    expect(details(await get.execute("1", { path: "memory/link.md" })).error).toBe(
      `Path is a symlink, not followed here (${ws}): memory/link.md`,
    );
    expect(details(await get.execute("2", { path: "memory/hard.md" })).error).toBe(
      `Refusing to read through a hardlink (2 links) inside ${ws}: memory/hard.md`,
    );
    expect(details(await get.execute("3", { path: "memory/ok.md" })).text).toBe("fine");
  });
});

describe("the indexer never follows a link", () => {
  it("leaves out memory/ when it is a symlink, and says so", async () => {
    const outside = workspace({ "secret.md": "The vault combination is 4711.\n" });
    const ws = workspace({ "MEMORY.md": "Nothing secret here.\n" });
    symlinkSync(outside, path.join(ws, "memory"));
    const listing = await listMemoryFiles(ws);
    expect(listing.files.map((f) => f.rel)).toEqual(["MEMORY.md"]);
    expect(listing.skipped).toEqual([{ path: "memory", reason: SYMLINK }]);
    const { search } = memoryTools(ws);
    const r = details(await search.execute("1", { query: "vault combination", minScore: 0 }));
    expect(r.results.map((h: { path: string }) => h.path)).toEqual(["MEMORY.md"]);
    expect(r.warning).toBe(`Not searched: memory (${SYMLINK}).`);
  });

  it("leaves out symlinks (files and directories) and hardlinked files inside memory/", async () => {
    const ws = workspace({
      "secrets.md": "secret\n",
      "elsewhere/deep.md": "deep\n",
      "memory/ok.md": "fine\n",
    });
    symlinkSync(path.join(ws, "secrets.md"), path.join(ws, "memory", "link.md"));
    symlinkSync(path.join(ws, "elsewhere"), path.join(ws, "memory", "sub"));
    linkSync(path.join(ws, "secrets.md"), path.join(ws, "memory", "hard.md"));
    const listing = await listMemoryFiles(ws);
    expect(listing.files.map((f) => f.rel)).toEqual(["memory/ok.md"]);
    expect(listing.skipped).toEqual([
      { path: "memory/hard.md", reason: "a hardlink (2 links); memory files are never read through links" },
      { path: "memory/link.md", reason: SYMLINK },
      { path: "memory/sub", reason: SYMLINK },
    ]);
  });

  it("drops a file from the index once it becomes a hardlink", async () => {
    const ws = workspace({ "memory/a.md": "Quarterly planning happens in March.\n" });
    const index = new MemoryIndex({
      workspaceDir: ws,
      dbPath: path.join(tempDir(), "m.sqlite"),
      embedder: createLocalEmbedder(),
    });
    expect(await index.sync()).toMatchObject({ added: 1 });
    linkSync(path.join(ws, "memory", "a.md"), path.join(ws, "other.md"));
    expect(await index.sync()).toMatchObject({ removed: 1, chunks: 0 });
    expect((await index.search("quarterly planning")).hits).toEqual([]);
    index.close();
  });

  it("a memory/ swapped for a symlink to outside, over and over, never leaks outside content", async () => {
    const outside = workspace({ "secret.md": "OUTSIDE-SECRET zebra\n" });
    const ws = workspace({ "memory/secret.md": "inside zebra\n" });
    const dbPath = path.join(tempDir(), "m.sqlite");
    const index = new MemoryIndex({ workspaceDir: ws, dbPath, embedder: createLocalEmbedder() });
    const { get } = memoryTools(ws);
    const swapper = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs");
         const [mem, parked, outside] = process.argv.slice(1);
         process.stdout.write("swapping\\n");
         for (;;) {
           try { fs.renameSync(mem, parked); fs.symlinkSync(outside, mem); fs.unlinkSync(mem); fs.renameSync(parked, mem); } catch {}
         }`,
        path.join(ws, "memory"),
        path.join(ws, "parked"),
        outside,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    const exited = new Promise((resolve) => swapper.once("exit", resolve));
    // the reads start once the swapper is running
    await new Promise((resolve) => swapper.stdout!.once("data", resolve));
    let escapes = 0;
    let answered = 0;
    const outcomes = new Set<string>();
    try {
      for (let round = 0; round < 300; round++) {
        const r = details(await get.execute(String(round), { path: "memory/secret.md" }));
        answered++;
        outcomes.add(r.status);
        if (JSON.stringify(r).includes("OUTSIDE-SECRET")) escapes++;
        if (round % 10 === 0) {
          await index.sync().catch(() => undefined);
          const hits = (await index.search("zebra", { minScore: 0 })).hits;
          if (hits.some((h) => h.text.includes("OUTSIDE-SECRET"))) escapes++;
        }
      }
    } finally {
      swapper.kill();
      await exited;
      index.close();
    }
    expect(answered).toBe(300);
    expect(escapes).toBe(0);
    // the swap really raced the reads: some found the file, some were refused or found nothing
    expect(outcomes.size).toBeGreaterThan(1);
  });
});
