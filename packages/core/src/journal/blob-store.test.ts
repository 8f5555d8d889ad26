import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BlobStore } from "./file-state.js";

const dir = mkdtempSync(path.join(tmpdir(), "clawtools-blobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

// put(data, true) remembers the bytes with their hash so the next put of the same bytes is not
// hashed again; the caller's buffer may change afterwards, and what is stored must follow it
describe("BlobStore's remembered hashes", () => {
  it("hashes a buffer changed in place since it was remembered by its new bytes", async () => {
    const blobs = new BlobStore(path.join(dir, "a"));
    const data = Buffer.from("first version\n".repeat(50));
    const first = await blobs.put(data, true);
    expect(first.hash).toBe(sha(data));
    data.write("FIRST", 0);
    const second = await blobs.put(data, true);
    expect(second.hash).toBe(sha(data));
    expect(second.hash).not.toBe(first.hash);
    expect(readFileSync(blobs.pathOf(second.hash))).toEqual(data);
    expect(readFileSync(blobs.pathOf(first.hash)).toString()).toBe("first version\n".repeat(50));
  });

  it("gives the same hash for the same bytes again and stores them once", async () => {
    const blobs = new BlobStore(path.join(dir, "b"));
    const data = Buffer.from("same bytes\n");
    const first = await blobs.put(data, true);
    const again = await blobs.put(Buffer.from("same bytes\n"), true);
    expect(again).toEqual({ hash: first.hash, added: 0 });
    // a copy removed behind the store's back is written again, not assumed
    await blobs.remove(first.hash);
    expect(await blobs.put(Buffer.from("same bytes\n"), true)).toEqual({ hash: first.hash, added: 11 });
    expect(readFileSync(blobs.pathOf(first.hash)).toString()).toBe("same bytes\n");
  });
});
