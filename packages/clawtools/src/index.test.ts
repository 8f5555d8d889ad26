import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClawtools, createToolset, SECTION_PACKAGES } from "./index.js";
import * as tools from "./tools.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the umbrella", () => {
  it("discovers the installed sections and serves a working read through createToolset", async () => {
    dir = mkdtempSync(join(tmpdir(), "clawtools-umbrella-"));
    writeFileSync(join(dir, "hello.txt"), "hello\nworld\n");
    const ct = await createClawtools({ include: ["fs"] });
    expect(ct.sections.map((s) => [s.section, s.packageName, Boolean(s.plugin)])).toEqual([
      ["fs", "@clawtools/fs", true],
    ]);
    const set = createToolset({ registry: ct.tools, context: { workspaceDir: dir } });
    const read = set.tools.find((t) => t.name === "read")!;
    const result = await read.execute("1", { path: "hello.txt" });
    expect(result.content).toEqual([{ type: "text", text: "hello\nworld\n" }]);
    await set.dispose();
  });

  it("maps every section of the catalog to its package and exports the tools sub-path", () => {
    expect(Object.keys(SECTION_PACKAGES)).toEqual([
      "fs",
      "runtime",
      "web",
      "memory",
      "sessions",
      "ui",
      "messaging",
      "automation",
      "nodes",
      "agents",
      "media",
    ]);
    expect(Object.keys(tools).sort()).toEqual([
      "ToolRegistry",
      "createMemoryBridge",
      "createNodeBridge",
      "discoverCoreTools",
      "discoverCoreToolsAsync",
      "extractToolSchemas",
    ]);
  });
});
