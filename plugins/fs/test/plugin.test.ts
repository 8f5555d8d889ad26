import { createToolset } from "@clawtools/core";
import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { createMemoryBridge, fsPlugin } from "../src/index.js";
import { text } from "./helpers.js";

describe("fs plugin", () => {
  it("passes the contract kit", async () => {
    const bridge = createMemoryBridge({ "a.txt": "hello" });
    const report = await checkPluginContract(
      fsPlugin,
      { root: "/workspace", bridge },
      {
        sampleArgs: {
          read: { path: "a.txt" },
          ls: {},
          find: { pattern: "*.txt" },
          grep: { pattern: "hello" },
          write: { path: "b.txt", content: "x" },
        },
      },
    );
    expect(report).toEqual({ ok: true, problems: [] });
  });

  it("works end to end over an in-memory bridge through createToolset (coding profile keeps grep/find/ls)", async () => {
    const bridge = createMemoryBridge({ "notes/a.md": "# Title\nbody\n" });
    const set = createToolset({
      plugins: [fsPlugin],
      context: { root: "/workspace", bridge },
      policy: { profile: "coding" },
    });
    expect(set.tools.map((t) => t.name)).toEqual(["read", "write", "edit", "grep", "find", "ls"]);
    const byName = Object.fromEntries(set.tools.map((t) => [t.name, t]));
    await byName.write!.execute("1", { path: "notes/b.md", content: "hello" });
    await byName.edit!.execute("2", {
      path: "notes/b.md",
      edits: [{ oldText: "hello", newText: "hello world" }],
    });
    expect(text(await byName.read!.execute("3", { path: "notes/b.md" }))).toBe("hello world");
    expect(text(await byName.ls!.execute("4", { path: "notes" }))).toBe("a.md\nb.md");
    expect(text(await byName.find!.execute("5", { pattern: "*.md" }))).toBe("notes/a.md\nnotes/b.md");
    expect(text(await byName.grep!.execute("6", { pattern: "world" }))).toBe("notes/b.md:1: hello world");
    const missing = await byName.read!.execute("7", { path: "nope.md" });
    expect(missing.isError).toBe(true);
  });

  it("is left out with a diagnostic when there is no workspace", () => {
    const set = createToolset({ plugins: [fsPlugin] });
    expect(set.tools).toEqual([]);
    expect(set.diagnostics.map((d) => d.message)).toContain(
      "fs/read: no workspace root (set context.workspaceDir or context.root)",
    );
  });
});
