import { mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createMemoryBridge, createNodeBridge, createReadTool } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

const lines = (n: number, prefix = "line") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join("\n");

describe("read", () => {
  it("returns raw text without line numbers and no details for small files", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "a.txt"), "hello\nworld");
    const r = await createReadTool({ workspaceDir: root }).execute("c", { path: "@a.txt" });
    expect(text(r)).toBe("hello\nworld");
    expect(r.details).toBeUndefined();
  });

  it("has no line cap: a file within the 32 KB budget comes whole, one past it in pages of 2000 lines", async () => {
    // OpenClaw 9.6: pages of up to 2000 lines are joined while the call stays within 32 KB
    const bridge = createMemoryBridge({ "small.txt": `${lines(3000)}\n`, "big.txt": lines(5000) });
    const read = createReadTool({ root: "/workspace", bridge });
    const r = await read.execute("c", { path: "small.txt" });
    expect(text(r)).toBe(`${lines(3000)}\n`);
    expect(r.details).toBeUndefined();
    const big = await read.execute("c", { path: "big.txt" });
    expect(
      text(big).endsWith(
        "line2000\n\n[Read output capped at 32KB for this call. Use offset=2001 to continue.]",
      ),
    ).toBe(true);
    expect(big.details?.continuation).toEqual({ kind: "line", offset: 2001 });
    const next = await read.execute("c", { path: "big.txt", offset: 2001 });
    // the rest (3000 lines, 27 KB) fits one call
    expect(text(next)).toBe(lines(5000).slice(lines(2000).length + 1));
  });

  it("pages at 32 KB with OpenClaw's notice", async () => {
    const bridge = createMemoryBridge({ "wide.txt": lines(1000, "x".repeat(100)) });
    const r = await createReadTool({ root: "/workspace", bridge }).execute("c", { path: "wide.txt" });
    expect(text(r)).toMatch(
      /x315\n\n\[Read output capped at 32KB for this call\. Use offset=316 to continue\.\]$/,
    );
    expect(Buffer.byteLength(text(r))).toBeLessThanOrEqual(32 * 1024);
  });

  it("says how many lines remain after an explicit limit; an offset past the end is a plain answer", async () => {
    const bridge = createMemoryBridge({ "f.txt": lines(10) });
    const read = createReadTool({ root: "/workspace", bridge });
    expect(text(await read.execute("c", { path: "f.txt", offset: 3, limit: 2 }))).toBe(
      "line3\nline4\n\n[6 more lines in file. Use offset=5 to continue.]",
    );
    const past = await read.execute("c", { path: "f.txt", offset: 11 });
    expect(past.isError).toBeUndefined();
    expect(text(past)).toBe("Offset 11 is beyond end of file (10 lines total). Retry with offset <= 10.");
  });

  it("does not count the empty string after a final newline as a line", async () => {
    const bridge = createMemoryBridge({ "hundred.txt": `${lines(100)}\n`, "f.txt": `${lines(10)}\n` });
    const read = createReadTool({ root: "/workspace", bridge });
    expect(text(await read.execute("c", { path: "hundred.txt", limit: 14 }))).toBe(
      `${lines(14)}\n\n[86 more lines in file. Use offset=15 to continue.]`,
    );
    expect(text(await read.execute("c", { path: "hundred.txt", offset: 101 }))).toBe(
      "Offset 101 is beyond end of file (100 lines total). Retry with offset <= 100.",
    );
    expect(text(await read.execute("c", { path: "f.txt", offset: 10 }))).toBe("line10\n");
    expect(text(await read.execute("c", { path: "f.txt", offset: 9, limit: 1 }))).toBe(
      "line9\n\n[1 more line in file. Use offset=10 to continue.]",
    );
    const big = createMemoryBridge({ "b.txt": `${lines(2500)}\n` });
    expect(
      text(await createReadTool({ root: "/workspace", bridge: big }).execute("c", { path: "b.txt" })),
    ).toBe(`${lines(2500)}\n`);
  });

  it("returns the first part of a line longer than the page and continues it with cursor", async () => {
    const long = `${"a".repeat(30 * 1024)}${"b".repeat(30 * 1024)}`;
    const bridge = createMemoryBridge({ "one.txt": `${long}\nshort\n` });
    const read = createReadTool({ root: "/workspace", bridge });
    const r = await read.execute("c", { path: "one.txt" });
    const [part, notice] = text(r).split("\n\n");
    expect(notice).toBe(
      "[Read output capped at 32KB for this call. Use offset=1, cursor=32683 to continue.]",
    );
    const cursor = 32683;
    expect(part).toBe(long.slice(0, cursor));
    expect(Buffer.byteLength(text(r))).toBe(32 * 1024);
    expect(r.details?.continuation).toEqual({ kind: "cursor", offset: 1, cursor });
    const rest = await read.execute("c", { path: "one.txt", cursor });
    expect(text(rest)).toBe(`${long.slice(cursor)}\nshort\n`);
    expect(text(await read.execute("c", { path: "one.txt", cursor: long.length }))).toBe(
      `Cursor ${long.length} is at or beyond the end of line 1 (${long.length} characters). Use offset=2 to continue.`,
    );
  });

  it("optional: true makes a missing file a plain answer; an empty file says so; CRLF comes back as LF", async () => {
    const bridge = createMemoryBridge({
      "empty.txt": "",
      "crlf.txt": "\ufeffone\r\ntwo\r\n",
      "notes/todo.md": "x",
      "notes/TODOS.md": "y",
    });
    const read = createReadTool({ root: "/workspace", bridge });
    const missing = await read.execute("c", { path: "nope.md", optional: true });
    expect(missing.isError).toBeUndefined();
    expect(text(missing)).toBe("Optional file not found: nope.md.");
    expect(missing.details).toEqual({ status: "not_found", path: "nope.md", optional: true });
    await expect(read.execute("c", { path: "nope.md" })).rejects.toThrow("File not found: nope.md.");
    // OpenClaw 9.6 names near spellings in the same directory
    await expect(read.execute("c", { path: "notes/todos.md" })).rejects.toThrow(
      "File not found: notes/todos.md. Did you mean: TODOS.md, todo.md?",
    );
    expect(text(await read.execute("c", { path: "empty.txt" }))).toBe("File is empty (0 bytes).");
    expect(text(await read.execute("c", { path: "crlf.txt" }))).toBe("one\ntwo\n");
    expect(text(await read.execute("c", { path: "crlf.txt", limit: 1 }))).toBe(
      "one\n\n[1 more line in file. Use offset=2 to continue.]",
    );
  });

  it("errors are sentences: a directory names ls, a huge path comes back short", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "sub"));
    const read = createReadTool({ workspaceDir: root });
    await expect(read.execute("c", { path: "sub" })).rejects.toThrow(
      "Read requires a file path, but sub is a directory. Use ls to list it, then read a specific file.",
    );
    const huge = "x".repeat(1024 * 1024);
    const error = await read.execute("c", { path: huge }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `path is too long (1048576 characters; the limit is 4096): ${"x".repeat(80)}… (1048576 characters)`,
    );
  });

  it("keeps the page budget configurable", async () => {
    const bridge = createMemoryBridge({ "wide.txt": lines(100, "x".repeat(100)) });
    const read = createReadTool({ root: "/workspace", bridge }, { readMaxBytes: 2048 });
    expect(read.description).toContain("up to 2KB");
    expect(text(await read.execute("c", { path: "wide.txt" }))).toMatch(
      /x19\n\n\[Read output capped at 2KB for this call\. Use offset=20 to continue\.\]$/,
    );
  });

  it("streams: the first page of a huge file never calls readFile", async () => {
    const inner = createMemoryBridge({ "huge.txt": lines(200_000) });
    const bridge = {
      ...inner,
      readFile: async () => {
        throw new Error("whole-file read attempted");
      },
    };
    const r = await createReadTool({ root: "/workspace", bridge }).execute("c", { path: "huge.txt" });
    expect(text(r)).toContain(
      "line2000\n\n[Read output capped at 32KB for this call. Use offset=2001 to continue.]",
    );
  });

  it("counts a big file's lines once: later pages stop reading where the page ends", async () => {
    const root = tempDir();
    const file = path.join(root, "log.txt");
    writeFileSync(file, lines(300_000, "entry"));
    const node = createNodeBridge(root);
    let streamed = 0;
    const bridge = {
      ...node,
      async *readStream(args: Parameters<typeof node.readStream>[0]) {
        for await (const chunk of node.readStream(args)) {
          streamed += chunk.length;
          yield chunk;
        }
      },
    };
    const read = createReadTool({ root, bridge });
    const first = await read.execute("c", { path: "log.txt" });
    expect(text(first)).toContain("[Read output capped at 32KB for this call. Use offset=2001 to continue.]");
    const size = statSync(file).size;
    expect(streamed).toBeGreaterThanOrEqual(size);
    streamed = 0;
    const second = await read.execute("c", { path: "log.txt", offset: 2001 });
    expect(text(second)).toContain("entry2001\n");
    expect(text(second)).toContain(
      "entry4000\n\n[Read output capped at 32KB for this call. Use offset=4001 to continue.]",
    );
    expect(streamed).toBeLessThan(size / 4);
    // a changed file is counted again
    writeFileSync(file, `${lines(300_000, "entry")}\nextra`);
    const third = await read.execute("c", { path: "log.txt", offset: 300_001 });
    expect(text(third)).toBe("extra");
  });

  it("the local disk's one-descriptor path pages, counts and sees changes like the general path", async () => {
    const root = tempDir();
    const file = path.join(root, "log.txt");
    writeFileSync(file, lines(300_000, "entry"));
    const read = createReadTool({ workspaceDir: root });
    expect(text(await read.execute("c", { path: "log.txt" }))).toContain(
      "entry2000\n\n[Read output capped at 32KB for this call. Use offset=2001 to continue.]",
    );
    expect(text(await read.execute("c", { path: "log.txt", offset: 299_999 }))).toBe(
      "entry299999\nentry300000",
    );
    writeFileSync(file, "short now\n");
    expect(text(await read.execute("c", { path: "log.txt" }))).toBe("short now\n");
    // a file that reports 0 bytes but has content (/proc) is read to its end
    const free = createReadTool({ workspaceDir: root }, { workspaceOnly: false });
    expect(text(await free.execute("c", { path: "/proc/self/status" }))).toMatch(/^Name:\t/);
  });

  it("reads images by magic bytes and downscales big ones; a .png holding text is text", async () => {
    const root = tempDir();
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    writeFileSync(path.join(root, "shot.dat"), big);
    writeFileSync(path.join(root, "fake.png"), "not an image");
    const read = createReadTool({ workspaceDir: root });
    const r = await read.execute("c", { path: "shot.dat" });
    expect(r.content[0]).toEqual({
      type: "text",
      text: expect.stringContaining("Read image file [image/"),
    });
    expect(text(r)).toContain(
      "[Image: original 3000x1500, displayed at 1200x600. Multiply coordinates by 2.50 to map to original image.]",
    );
    const img = r.content[1] as { data: string };
    expect((await sharp(Buffer.from(img.data, "base64")).metadata()).width).toBe(1200);
    // configurable; an image that already fits is sent as it is
    const wide = createReadTool({ workspaceDir: root }, { imageMaxDimensionPx: 3000 });
    const same = await wide.execute("c", { path: "shot.dat" });
    expect(text(same)).toBe("Read image file [image/png]\n[image/png]");
    expect((same.content[1] as { data: string }).data).toBe(big.toString("base64"));
    expect(text(await read.execute("c", { path: "fake.png" }))).toBe("not an image");
  });

  it("tries the macOS screenshot spelling and says which name it read (OpenClaw 9.6)", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "Screenshot 2024-01-01 at 10.00.00\u202fAM.txt"), "found");
    const r = await createReadTool({ workspaceDir: root }).execute("c", {
      path: "Screenshot 2024-01-01 at 10.00.00 AM.txt",
    });
    expect(text(r)).toBe(
      "[Resolved filename: Screenshot 2024-01-01 at 10.00.00 AM.txt -> Screenshot 2024-01-01 at 10.00.00\u202fAM.txt.]\nfound",
    );
  });
});

describe("read: names and cursors (OpenClaw 9.6)", () => {
  it("says a resolved name once, before pages joined in one call", async () => {
    // 9.6 repeats the note before each joined page; once is enough for the model
    const body = Array.from({ length: 10_000 }, (_, i) => `${i + 1}`).join("\n");
    const bridge = createMemoryBridge({ "notes\u2019.txt": body });
    const r = text(await createReadTool({ root: "/workspace", bridge }).execute("c", { path: "notes'.txt" }));
    expect(r.startsWith("[Resolved filename: notes'.txt -> notes\u2019.txt.]\n1\n2\n")).toBe(true);
    expect(r.match(/Resolved filename/g)).toHaveLength(1);
    expect(r.endsWith("[Read output capped at 32KB for this call. Use offset=6001 to continue.]")).toBe(true);
  });

  it("refuses a cursor between the halves of a character and names the two cursors around it", async () => {
    const bridge = createMemoryBridge({ "e.txt": "ab\u{1F600}cd" });
    const read = createReadTool({ root: "/workspace", bridge });
    await expect(read.execute("c", { path: "e.txt", cursor: 3 })).rejects.toThrow(
      "Cursor 3 splits a UTF-16 surrogate pair; retry with cursor=2 or cursor=4.",
    );
    expect(text(await read.execute("c", { path: "e.txt", cursor: 4 }))).toBe("cd");
  });
});

describe("read over the memory bridge", () => {
  it("sees a same-size rewrite of a big file (the line-total cache keys on mtime)", async () => {
    // over 1 MB, so its line total is remembered
    const big = (prefix: string) =>
      Array.from({ length: 200_000 }, (_, i) => `${prefix}-line-${i % 10}`).join("\n");
    const bridge = createMemoryBridge({ "big.txt": big("a") });
    const read = createReadTool({ root: "/workspace", bridge });
    expect(text(await read.execute("c", { path: "big.txt", offset: 200_000 }))).toBe("a-line-9");
    // same size, one line fewer: a newline becomes a character
    const changed = big("a").replace("\n", "x");
    expect(changed.length).toBe(big("a").length);
    await bridge.writeFile({ filePath: "big.txt", data: changed });
    const after = text(await read.execute("c", { path: "big.txt", offset: 200_000 }));
    expect(after).toBe(
      "Offset 200000 is beyond end of file (199999 lines total). Retry with offset <= 199999.",
    );
  });
});
