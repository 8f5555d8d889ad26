import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BlobStore, captureState } from "./file-state.js";

const dir = mkdtempSync(path.join(tmpdir(), "clawtools-capture-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

// small regular files are read in place, larger ones through the thread pool: both keep the
// same state, and the copy holds the file's bytes
describe("captureState", () => {
  const blobs = new BlobStore(path.join(dir, "blobs"));

  it("keeps a small file, an empty one and one past the in-place limit with their bytes", async () => {
    for (const [name, bytes] of [
      ["small.txt", Buffer.from("line one\nline two\n")],
      ["empty.txt", Buffer.alloc(0)],
      ["edge.bin", Buffer.alloc(64 * 1024, 7)],
      ["large.bin", Buffer.alloc(64 * 1024 + 1, 9)],
    ] as const) {
      const abs = path.join(dir, name);
      writeFileSync(abs, bytes, { mode: 0o640 });
      const { state } = await captureState(abs, blobs);
      expect(state).toEqual({ type: "file", mode: 0o640, hash: sha(bytes), size: bytes.length });
      expect(readFileSync(blobs.pathOf(sha(bytes)))).toEqual(bytes);
    }
  });

  it("keeps a link as its target and finds nothing at a FIFO or a missing path", async () => {
    symlinkSync("small.txt", path.join(dir, "link"));
    expect((await captureState(path.join(dir, "link"), blobs)).state).toEqual({
      type: "symlink",
      target: "small.txt",
    });
    execFileSync("mkfifo", [path.join(dir, "fifo")]);
    expect((await captureState(path.join(dir, "fifo"), blobs)).state).toBeNull();
    expect((await captureState(path.join(dir, "missing"), blobs)).state).toBeNull();
  });
});
