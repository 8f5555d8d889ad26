import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createReadTool } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

const openFds = () => readdirSync("/proc/self/fd").length;

describe.skipIf(process.platform !== "linux")("read closes what it opens", () => {
  it("500 warm reads answer before their close, and every descriptor is closed afterwards", async () => {
    const root = tempDir();
    const body = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n");
    writeFileSync(path.join(root, "f.txt"), body);
    const read = createReadTool({ workspaceDir: root });
    expect(text(await read.execute("c", { path: "f.txt" }))).toBe(body);
    const before = openFds();
    for (let i = 0; i < 500; i++) expect(text(await read.execute("c", { path: "f.txt" }))).toBe(body);
    // the closes were started, not awaited: they land shortly after (the walk's directory too)
    await vi.waitFor(() => expect(openFds()).toBeLessThanOrEqual(before + 2), { timeout: 10_000 });
  });
});
