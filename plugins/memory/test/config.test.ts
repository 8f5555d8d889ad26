import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ConfigError, createToolset } from "@clawtools/core";
import { resolveStateDir } from "@clawtools/core/state";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryPlugin, memoryPlugin } from "../src/index.js";
import { details, memoryTools, tempDir, workspace } from "./helpers.js";

const NOTES = {
  "MEMORY.md": "The deploy window is Tuesday.\n",
  "memory/a.md": "Deploys need a second reviewer.\n",
  "memory/b.md": "Deploy freeze starts in December.\n",
};

describe("config.memory", () => {
  it("is declared as the plugin's configSchema", () => {
    expect(memoryPlugin.configSchema).toBeDefined();
    expect(createMemoryPlugin().configSchema).toBe(memoryPlugin.configSchema);
  });

  it("changes behaviour: citations, maxResults, the index path with {agentId}", async () => {
    const ws = workspace(NOTES);
    const { search, stateDir } = memoryTools(
      ws,
      {},
      {
        agentId: "ops",
        config: {
          memory: {
            citations: "off",
            search: { query: { maxResults: 1, minScore: 0 }, store: { path: "idx/{agentId}.db" } },
          },
        },
      },
    );
    const r = details(await search.execute("1", { query: "deploy" }));
    expect(r.citations).toBe("off");
    expect(r.results).toHaveLength(1);
    expect(r.results[0].snippet).not.toContain("Source:");
    expect(existsSync(path.join(stateDir, "idx", "ops.db"))).toBe(true);
  });

  it("options in code win key by key over the context's config", async () => {
    const ws = workspace(NOTES);
    const { search } = memoryTools(
      ws,
      { maxResults: 2 },
      { config: { memory: { search: { query: { maxResults: 1, minScore: 0 } } } } },
    );
    expect(details(await search.execute("1", { query: "deploy" })).results).toHaveLength(2);
  });

  it("a misspelt key is an error naming it: in code at creation, in the context when the tools are built", () => {
    expect(() => createMemoryPlugin({ minScore: 3 })).toThrow(ConfigError);
    expect(() => createMemoryPlugin({ minScore: 3 })).toThrow(
      "Invalid configuration for memory:\n  - search.query.minScore: ",
    );
    const plugin = createMemoryPlugin();
    const set = createToolset({
      plugins: [plugin],
      context: {
        workspaceDir: workspace({}),
        stateDir: tempDir(),
        config: { memory: { search: { query: { maxResult: 3 } } } },
      },
    });
    expect(set.tools.map((t) => t.name)).toEqual([]);
    expect(set.diagnostics.map((d) => d.message)).toContain(
      "memory/memory_search: Invalid configuration for memory:\n  - search.query: must not have additional properties (maxResult)",
    );
  });
});

describe("where the index lives", () => {
  const saved = process.env.XDG_STATE_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
  });

  it("goes under the state directory by default, never into the workspace", async () => {
    const ws = workspace(NOTES);
    process.env.XDG_STATE_HOME = tempDir();
    const plugin = createMemoryPlugin();
    const set = createToolset({ plugins: [plugin], context: { workspaceDir: ws } });
    await set.tools[0]!.execute("1", { query: "deploy" });
    await set.dispose();
    const expected = path.join(resolveStateDir({ workspaceDir: ws }), "memory", "main.sqlite");
    expect(expected.startsWith(process.env.XDG_STATE_HOME)).toBe(true);
    expect(existsSync(expected)).toBe(true);
    expect(readdirSync(ws).sort()).toEqual(["MEMORY.md", "memory"]);
  });
});

describe("dispose()", () => {
  it("closes the plugin's databases, once", async () => {
    const ws = workspace(NOTES);
    const { search, stateDir, dispose } = memoryTools(ws);
    await search.execute("1", { query: "deploy" });
    const db = path.join(stateDir, "memory", "main.sqlite");
    // open in WAL mode: the log exists while a connection is open, and goes with the last close
    expect(existsSync(`${db}-wal`)).toBe(true);
    await dispose();
    expect(existsSync(`${db}-wal`)).toBe(false);
    await expect(dispose()).resolves.toBeUndefined();
  });
});
