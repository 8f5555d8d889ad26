import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AnyAgentTool, createToolset, type ToolContext } from "@clawtools/core";
import { afterEach } from "vitest";
import { createMemoryPlugin, type MemoryPluginOptions } from "../src/index.js";

const dirs: string[] = [];
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp directory, removed after the test. */
export function tempDir(prefix = "clawtools-mem-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A temp workspace with the given files (relative path → content). */
export function workspace(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/**
 * The memory tools of a toolset over `ws`, with the state directory in a temp dir (never the
 * user's). The plugin is disposed after the test.
 */
export function memoryTools(
  ws: string,
  options: MemoryPluginOptions = {},
  context: Partial<ToolContext> = {},
): { search: AnyAgentTool; get: AnyAgentTool; stateDir: string; dispose: () => Promise<void> } {
  const plugin = createMemoryPlugin(options);
  const stateDir = context.stateDir ?? tempDir("clawtools-mem-state-");
  const set = createToolset({ plugins: [plugin], context: { workspaceDir: ws, stateDir, ...context } });
  cleanups.push(() => set.dispose());
  const find = (name: string) => {
    const tool = set.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`${name} missing: ${JSON.stringify(set.diagnostics ?? null)}`);
    return tool;
  };
  return { search: find("memory_search"), get: find("memory_get"), stateDir, dispose: () => set.dispose() };
}

export const details = (r: { details?: unknown }) => r.details as Record<string, any>;
