import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentToolResult, ToolContext } from "@clawtools/core";
import { afterEach } from "vitest";
import { createApplyPatchTool } from "../src/tools/apply-patch.js";
import { createEditTool } from "../src/tools/edit.js";
import { createReadTool } from "../src/tools/read.js";
import { createWriteTool } from "../src/tools/write.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-fs-")));
  dirs.push(dir);
  return dir;
}

export const text = (r: AgentToolResult<unknown>) =>
  r.content
    .map((c) => (c.type === "text" ? c.text : `[${"mimeType" in c ? c.mimeType : c.type}]`))
    .join("\n");

/** One session: read, edit, write and apply_patch over one context, as a toolset builds them. */
export function session(root: string) {
  const ctx: ToolContext = { workspaceDir: root };
  return {
    read: (p: string) => createReadTool(ctx).execute("c", { path: p }),
    edit: (p: string, oldText: string, newText: string) =>
      createEditTool(ctx).execute("c", { path: p, oldText, newText }),
    write: (p: string, content: string, overwrite?: boolean) =>
      createWriteTool(ctx).execute("c", { path: p, content, ...(overwrite ? { overwrite } : {}) }),
    patch: (input: string) => createApplyPatchTool(ctx).execute("c", { input }),
  };
}

/** "applied", or the refusal's message. */
export const outcome = (p: Promise<unknown>) =>
  p.then(
    () => "applied",
    (e: Error) => e.message,
  );
