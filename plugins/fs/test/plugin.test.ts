import { createToolset } from "@clawtools/core";
import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { createFsPlugin, createMemoryBridge, fsPlugin } from "../src/index.js";
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

describe("fs arguments and configuration", () => {
  const toolset = (config?: Record<string, unknown>) => {
    const bridge = createMemoryBridge({ "a.txt": `${"x".repeat(100)}\n`.repeat(100) });
    const set = createToolset({
      plugins: [fsPlugin],
      context: { root: "/workspace", bridge, ...(config ? { config } : {}) },
      policy: { profile: "coding" },
    });
    return { set, byName: Object.fromEntries(set.tools.map((t) => [t.name, t])) };
  };

  it("an argument a tool does not know is an error that names it", async () => {
    const { byName } = toolset();
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ["read", { path: "a.txt", page: 2 }, "page"],
      ["write", { path: "b.txt", content: "x", append: true }, "append"],
      [
        "edit",
        { path: "a.txt", edits: [{ oldText: "x", newText: "y" }], expected_replacements: 2 },
        "expected_replacements",
      ],
      ["grep", { pattern: "x", output_mode: "count" }, "output_mode"],
      ["find", { pattern: "*.txt", type: "f" }, "type"],
      ["ls", { path: ".", depth: 2 }, "depth"],
    ];
    for (const [name, args, unknown] of calls) {
      const r = await byName[name]!.execute("1", args as never);
      expect(r.isError, name).toBe(true);
      expect(text(r), name).toContain(`must not have additional properties (${unknown})`);
    }
    // OpenClaw 9.6's names are accepted: read.cursor, read.optional, ls.after
    expect(text(await byName.read!.execute("2", { path: "nope.md", optional: true }))).toBe(
      "Optional file not found: nope.md.",
    );
    expect(text(await byName.ls!.execute("3", { after: "a" }))).toBe("a.txt");
  });

  it("reads config.fs: the page budget is configurable, bad keys are refused with the key named", async () => {
    const { byName } = toolset({ fs: { readMaxBytes: 2048 } });
    expect(text(await byName.read!.execute("1", { path: "a.txt" }))).toMatch(
      /\n\n\[Read output capped at 2KB for this call\. Use offset=\d+ to continue\.\]$/,
    );
    const bad = toolset({ fs: { readMaxBytes: "lots", colour: "red" } });
    expect(bad.set.tools).toEqual([]);
    const messages = bad.set.diagnostics.map((d) => d.message).join("\n");
    expect(messages).toContain("Invalid configuration for fs:");
    expect(messages).toContain("colour");
    expect(messages).toContain("readMaxBytes");
    expect(() => createFsPlugin({ imageMaxDimensionPx: 10 })).toThrow(/Invalid configuration for fs:/);
  });
});
