import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

/** Whether sharp's native addon is loaded into this process. */
const sharpLoaded = () =>
  (process.report.getReport() as { sharedObjects: string[] }).sharedObjects.some((so) =>
    /sharp-[\w-]+\.node$/.test(so),
  );

// a 1×1 PNG
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("sharp (optional) loads on the first image that needs resizing", () => {
  it("importing fs and reading a small image never loads it; a big one does", async () => {
    expect(sharpLoaded()).toBe(false);
    const root = tempDir();
    writeFileSync(path.join(root, "tiny.png"), TINY_PNG);
    const read = createReadTool({ workspaceDir: root });
    const tiny = await read.execute("c", { path: "tiny.png" });
    expect(text(tiny)).toBe("Read image file [image/png]\n[image/png]");
    expect((tiny.content[1] as { data: string }).data).toBe(TINY_PNG.toString("base64"));
    expect(sharpLoaded()).toBe(false);
    // a header saying 3000×3000: this one needs resizing (it does not decode, so it is sent as is)
    const big = Buffer.from(TINY_PNG);
    big.writeUInt32BE(3000, 16);
    big.writeUInt32BE(3000, 20);
    writeFileSync(path.join(root, "big.png"), big);
    await read.execute("c", { path: "big.png" });
    expect(sharpLoaded()).toBe(true);
  });
});
