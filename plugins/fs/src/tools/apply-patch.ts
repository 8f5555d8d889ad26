import path from "node:path";
import { type AgentTool, type ToolContext, ToolInputError, Type } from "@clawtools/core";
import { type FsEnv, type FsToolOptions, resolveFsEnv, throwIfAborted, withFileLock } from "../fs-env.js";
import { displayPath } from "../paths.js";
import { applyUpdateChunks } from "../patch/apply-update.js";
import { parsePatch } from "../patch/parse.js";

export const applyPatchSchema = Type.Object({
  input: Type.String({ description: "Patch content using the *** Begin Patch/End Patch format." }),
});

export interface ApplyPatchDetails {
  summary: { added: string[]; modified: string[]; deleted: string[] };
}

type Change = { abs: string; shown: string; content: string | null };

const DESCRIPTION =
  "Apply a patch to one or more files using the apply_patch format. The input should include *** Begin Patch and *** End Patch markers. Every hunk is checked before anything is written: a patch that does not apply changes nothing.";

async function readText(env: FsEnv, abs: string): Promise<string | null> {
  const st = await env.bridge.stat({ filePath: abs });
  if (!st) return null;
  if (st.type !== "file") throw new ToolInputError(`Not a file: ${displayPath(env.root, abs)}`);
  return (await env.bridge.readFile({ filePath: abs })).toString("utf8");
}

/** Plans every change in memory (paths checked, files read, chunks fitted); nothing is written. */
async function plan(env: FsEnv, input: string) {
  const hunks = parsePatch(input);
  const changes: Change[] = [];
  const summary: ApplyPatchDetails["summary"] = { added: [], modified: [], deleted: [] };
  const lines: string[] = [];
  // later hunks see earlier ones (a file added then updated in the same patch)
  const pending = new Map<string, string | null>();
  const current = async (abs: string) => (pending.has(abs) ? pending.get(abs)! : readText(env, abs));
  for (const hunk of hunks) {
    const abs = env.resolve(hunk.path);
    const shown = displayPath(env.root, abs);
    if (hunk.kind === "add") {
      pending.set(abs, hunk.contents);
      summary.added.push(shown);
      lines.push(`A ${shown}`);
    } else if (hunk.kind === "delete") {
      if ((await current(abs)) === null)
        throw new ToolInputError(`Failed to delete file ${shown}: file not found`);
      pending.set(abs, null);
      summary.deleted.push(shown);
      lines.push(`D ${shown}`);
    } else {
      const original = await current(abs);
      if (original === null)
        throw new ToolInputError(`Failed to read file to update ${shown}: file not found`);
      const updated = applyUpdateChunks(original, hunk.chunks, shown);
      if (hunk.moveTo) {
        const dest = env.resolve(hunk.moveTo);
        const destShown = displayPath(env.root, dest);
        pending.set(abs, null);
        pending.set(dest, updated);
        summary.modified.push(destShown);
        lines.push(`M ${destShown}`);
      } else {
        pending.set(abs, updated);
        summary.modified.push(shown);
        lines.push(`M ${shown}`);
      }
    }
  }
  for (const [abs, content] of pending) changes.push({ abs, shown: displayPath(env.root, abs), content });
  return { changes, summary, lines };
}

/** Writes the planned changes; if one fails, every file already touched is put back. */
async function commit(env: FsEnv, changes: Change[], signal?: AbortSignal): Promise<void> {
  const backups: Array<{ abs: string; before: Buffer | null }> = [];
  try {
    for (const change of changes) {
      throwIfAborted(signal);
      const st = await env.bridge.stat({ filePath: change.abs });
      const before = st?.type === "file" ? await env.bridge.readFile({ filePath: change.abs }) : null;
      backups.push({ abs: change.abs, before });
      if (change.content === null) {
        if (!env.bridge.remove)
          throw new ToolInputError("This file-system bridge cannot delete files (remove missing)");
        if (before !== null) await env.bridge.remove({ filePath: change.abs });
      } else {
        await env.bridge.mkdirp({ filePath: path.dirname(change.abs) });
        await env.bridge.writeFile({ filePath: change.abs, data: change.content });
      }
    }
  } catch (error) {
    for (const { abs, before } of backups.reverse()) {
      try {
        if (before === null) await env.bridge.remove?.({ filePath: abs }).catch(() => {});
        else await env.bridge.writeFile({ filePath: abs, data: before });
      } catch {
        // best effort: keep restoring the others
      }
    }
    throw error;
  }
}

export function createApplyPatchTool(
  ctx: ToolContext = {},
  options: FsToolOptions = {},
): AgentTool<typeof applyPatchSchema, ApplyPatchDetails> {
  const env = resolveFsEnv(ctx, options);
  return {
    name: "apply_patch",
    label: "apply_patch",
    description: DESCRIPTION,
    parameters: applyPatchSchema,
    async execute(_id, { input }, signal) {
      throwIfAborted(signal);
      if (!input?.trim()) throw new ToolInputError("Provide a patch input.");
      // one patch at a time per workspace: its files are planned and written as a unit
      return withFileLock(`apply_patch:${env.root}`, async () => {
        const { changes, summary, lines } = await plan(env, input);
        if (changes.length === 0)
          return { content: [{ type: "text", text: "No files were modified." }], details: { summary } };
        await commit(env, changes, signal);
        return {
          content: [{ type: "text", text: `Success. Updated the following files:\n${lines.join("\n")}` }],
          details: { summary },
        };
      });
    },
  };
}
