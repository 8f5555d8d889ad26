import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AnyAgentTool, createToolset, type ToolContext } from "@clawtools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createClawtools, isLazySectionPlugin } from "./index.js";
import { liveManifest } from "./manifest-live.js";
import { MANIFEST_SECTIONS } from "./manifests/index.js";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "manifests");

describe("section manifests", () => {
  for (const section of MANIFEST_SECTIONS) {
    it(`${section}.json matches the live section (regenerate: pnpm --filter clawtools manifests)`, async () => {
      const stored = JSON.parse(readFileSync(path.join(dir, `${section}.json`), "utf8"));
      expect(await liveManifest(section)).toEqual(stored);
    }, 60_000);
  }
});

/** Every property a listing shows, without execute. */
const shown = (tools: AnyAgentTool[]) =>
  tools.map(({ execute: _execute, ...data }) => JSON.parse(JSON.stringify(data)) as unknown);

describe("lazy sections", () => {
  const root = mkdtempSync(path.join(tmpdir(), "clawtools-lazy-"));
  writeFileSync(path.join(root, "hello.txt"), "hi\n");
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const context: ToolContext = {
    workspaceDir: root,
    stateDir: path.join(root, ".state"),
    agentId: "cli",
    sessionKey: "agent:cli:main",
    config: {},
  };

  for (const profile of ["minimal", "coding", "full"]) {
    it(`list the same tools as the imported sections (${profile})`, async () => {
      const eager = await createClawtools();
      const lazy = await createClawtools({ lazy: true });
      try {
        const a = createToolset({ registry: eager.tools, context, policy: { profile }, senderIsOwner: true });
        const b = createToolset({ registry: lazy.tools, context, policy: { profile }, senderIsOwner: true });
        expect(shown(b.tools)).toEqual(shown(a.tools));
        expect(b.diagnostics.map((d) => d.message)).toEqual(a.diagnostics.map((d) => d.message));
        await Promise.all([a.dispose(), b.dispose()]);
      } finally {
        await Promise.all([eager.tools.dispose(), lazy.tools.dispose()]);
      }
    }, 60_000);
  }

  it("import nothing to list, and import a section on the first call of one of its tools", async () => {
    const imported: string[] = [];
    const lazy = await createClawtools({
      lazy: true,
      include: ["fs", "agents"],
      importer: (specifier) => {
        imported.push(specifier);
        return import(specifier);
      },
    });
    try {
      const toolset = createToolset({ registry: lazy.tools, context });
      expect(toolset.tools.map((t) => t.name).sort()).toContain("read");
      expect(imported).toEqual([]);
      const ls = toolset.tools.find((t) => t.name === "ls") as AnyAgentTool;
      const result = await ls.execute("1", { path: "." });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain("hello.txt");
      expect(imported).toEqual(["@clawtools/fs"]);
      const fs = lazy.tools.plugins().find((p) => p.section === "fs");
      expect(fs && isLazySectionPlugin(fs) && fs.loaded).toBeTruthy();
      await toolset.dispose();
    } finally {
      await lazy.tools.dispose();
    }
  });

  it("a tool's prepare imports its section and builds the real tool once, before any call (through the toolset's wrapping)", async () => {
    const imported: string[] = [];
    const lazy = await createClawtools({
      lazy: true,
      include: ["fs"],
      importer: (specifier) => {
        imported.push(specifier);
        return import(specifier);
      },
    });
    try {
      const toolset = createToolset({ registry: lazy.tools, context });
      const ls = toolset.tools.find((t) => t.name === "ls") as AnyAgentTool;
      const read = toolset.tools.find((t) => t.name === "read") as AnyAgentTool;
      const ready = ls.prepare?.();
      expect(ready).toBeInstanceOf(Promise);
      await ready;
      expect(imported).toEqual(["@clawtools/fs"]);
      // nothing left to load for this tool; another tool of the section still builds its own
      expect(ls.prepare?.()).toBeUndefined();
      await read.prepare?.();
      expect(read.prepare?.()).toBeUndefined();
      expect(JSON.stringify((await ls.execute("1", { path: "." })).content)).toContain("hello.txt");
      expect(imported).toEqual(["@clawtools/fs"]);
      await toolset.dispose();
    } finally {
      await lazy.tools.dispose();
    }
  });
});
