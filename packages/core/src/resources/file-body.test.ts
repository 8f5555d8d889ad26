import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readFileBody, readFilePart } from "./file-body.js";
import { LinkedFiles } from "./linked-files.js";
import { isResourceTooLargeError } from "./too-large.js";

const dir = () => mkdtempSync(path.join(tmpdir(), "clawtools-file-body-"));

describe("files as resource bodies", () => {
  it("reads parts on character boundaries, so the parts join to the file", async () => {
    const file = path.join(dir(), "out.txt");
    const text = "aé✓😀".repeat(50);
    writeFileSync(file, text);
    for (const partBytes of [1, 2, 3, 5, 7, 64]) {
      let joined = "";
      for (let part = 0; ; part++) {
        const body = await readFilePart(file, part, { text: true, partBytes });
        if (body === undefined) break;
        expect(body).not.toContain("\uFFFD");
        joined += body as string;
      }
      expect(joined).toBe(text);
    }
    expect(await readFilePart(path.join(dir(), "gone"), 0, { text: true })).toBeUndefined();
  });

  it("refuses a file larger than a read, naming where to read it instead", async () => {
    const file = path.join(dir(), "big.bin");
    writeFileSync(file, Buffer.alloc(2048, 7));
    const read = readFileBody(file, { uri: "x://big", text: false, maxBytes: 1024, instead: () => "ask x" });
    await expect(read).rejects.toThrow(
      "Resource x://big is 2.0KB, more than the 1.0KB one read returns; ask x",
    );
    await read.catch((error) => expect(isResourceTooLargeError(error)).toBe(true));
    expect(await readFileBody(file, { uri: "x://big", text: false })).toEqual(new Uint8Array(2048).fill(7));
  });

  it("LinkedFiles lists and reads a file only in the scope that linked it, bytes as bytes", async () => {
    const file = path.join(dir(), "shot.png");
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const files = new LinkedFiles({ prefix: "clawtools://t/", name: "t", description: "t" });
    const changes: unknown[] = [];
    const stop = files.watch({ sessionKey: "a" }, (c) => changes.push(c));
    const link = files.link(
      { sessionKey: "a" },
      { path: file, name: "shot", mimeType: "image/png", size: 4 },
    );
    stop();
    expect(link).toMatchObject({ type: "resource_link", name: "shot", mimeType: "image/png", size: 4 });
    expect(changes).toEqual([{}]);
    expect(files.list({ sessionKey: "a" }).map((r) => r.uri)).toEqual([link.uri]);
    expect(files.list({ sessionKey: "b" })).toEqual([]);
    expect(await files.read(link.uri, { sessionKey: "a" })).toEqual({
      mimeType: "image/png",
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    expect(await files.read(link.uri, { sessionKey: "b" })).toBeUndefined();
  });
});
