import path from "node:path";
import { type AgentTool, type ToolContext, ToolInputError, Type } from "@clawtools/core";
import { type FsEnv, type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { displayPath } from "../paths.js";
import { joinEndings, splitEndings } from "../edit/line-endings.js";
import { applyUpdateChunks } from "../patch/apply-update.js";
import { parsePatch } from "../patch/parse.js";
import { changedSince, seenText, unchangedSince } from "../stale/judge.js";
import { staleRefusal, touches, withLoopNote } from "../stale/region.js";

export const applyPatchSchema = Type.Object(
  { input: Type.String({ description: "Patch content using the *** Begin Patch/End Patch format." }) },
  { additionalProperties: false },
);

export interface ApplyPatchDetails {
  summary: { added: string[]; modified: string[]; deleted: string[] };
}

type Change = { abs: string; shown: string; content: string | null; link?: boolean };

const DESCRIPTION =
  "Apply a patch to one or more files using the apply_patch format. The input should include *** Begin Patch and *** End Patch markers. Every hunk is checked before anything is written: a patch that does not apply changes nothing.";

/** Whether `abs` is itself a symlink, found by listing its directory (the link is never followed). */
async function isSymlink(env: FsEnv, abs: string): Promise<boolean> {
  if (!env.bridge.readdir) return false;
  const entries = await env.bridge.readdir({ filePath: path.dirname(abs) }).catch(() => []);
  return entries.some((e) => e.name === path.basename(abs) && e.type === "symlink");
}

/** The missing ancestors of `dir` (deepest first), so a rollback can remove what it created. */
async function missingDirs(env: FsEnv, dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let at = dir; at !== path.dirname(at); at = path.dirname(at)) {
    if (await env.bridge.stat({ filePath: at }).catch(() => null)) break;
    missing.push(at);
  }
  return missing;
}

/** Removes an empty directory this patch created (rmdir never removes content or follows a link). */
async function removeCreatedDir(env: FsEnv, dir: string): Promise<void> {
  if ((await env.bridge.stat({ filePath: dir }).catch(() => null))?.type !== "directory") return;
  // the local bridge removes an empty directory through the verified walk (rmdir semantics)
  await env.bridge.remove?.({ filePath: dir }).catch(() => {});
}

async function readText(env: FsEnv, abs: string): Promise<string | null> {
  const st = await env.bridge.stat({ filePath: abs });
  if (!st) return null;
  if (st.type !== "file") throw new ToolInputError(`Not a file: ${displayPath(env.root, abs)}`);
  return (await env.bridge.readFile({ filePath: abs })).toString("utf8");
}

function refuse(env: FsEnv, message: string): never {
  throw new ToolInputError(withLoopNote(message, env.seen.refused(message)));
}

/**
 * The stale guard of an update: when the file changed on disk since this session saw it, the
 * chunks still apply unless the lines they change are among the lines that changed.
 */
async function guardRegions(
  env: FsEnv,
  abs: string,
  shown: string,
  raw: string,
  now: string,
  wanted: string,
  touched: Array<[number, number]>,
): Promise<void> {
  const then = await env.seen.get(abs);
  const ranges = then === undefined ? undefined : changedSince(then, raw, now);
  if (then === undefined || ranges === undefined) return;
  for (const [first, last] of touched)
    if (touches(ranges, first, last))
      refuse(env, staleRefusal({ shown, seen: seenText(then), now, wanted, first, last }));
}

/** Plans every change in memory (paths checked, files read, chunks fitted); nothing is written. */
async function plan(env: FsEnv, input: string) {
  const hunks = parsePatch(input);
  const changes: Change[] = [];
  const summary: ApplyPatchDetails["summary"] = { added: [], modified: [], deleted: [] };
  const lines: string[] = [];
  // later hunks see earlier ones (a file added then updated in the same patch)
  const pending = new Map<string, string | null>();
  const links = new Set<string>();
  const current = async (abs: string) => (pending.has(abs) ? pending.get(abs)! : readText(env, abs));
  for (const hunk of hunks) {
    const abs = env.resolve(hunk.path);
    const shown = displayPath(env.root, abs);
    if (hunk.kind === "add") {
      if ((await current(abs)) !== null)
        throw new ToolInputError(
          `Cannot create ${shown}: the file already exists. Use "*** Update File: ${shown}" to change it, or delete it earlier in the same patch.`,
        );
      pending.set(abs, hunk.contents);
      summary.added.push(shown);
      lines.push(`A ${shown}`);
    } else if (hunk.kind === "delete") {
      if (!pending.has(abs) && (await isSymlink(env, abs))) {
        // unlink semantics: the link goes, whatever it points at (even outside) is never read
        links.add(abs);
      } else {
        const now = await current(abs);
        if (now === null) throw new ToolInputError(`Failed to delete file ${shown}: file not found`);
        const then = pending.has(abs) ? undefined : await env.seen.get(abs);
        if (then !== undefined && !unchangedSince(then, now))
          refuse(
            env,
            `${shown} changed on disk since this session last read it; deleting it would discard those changes. Read it again first.`,
          );
      }
      pending.set(abs, null);
      summary.deleted.push(shown);
      lines.push(`D ${shown}`);
    } else {
      const original = await current(abs);
      if (original === null)
        throw new ToolInputError(`Failed to read file to update ${shown}: file not found`);
      // chunks fit the LF text; every line keeps its own ending, new lines take their neighbours'
      const lined = splitEndings(original);
      const touched: Array<[number, number]> = [];
      const text = applyUpdateChunks(lined.text, hunk.chunks, shown, touched);
      if (!pending.has(abs)) await guardRegions(env, abs, shown, original, lined.text, text, touched);
      const updated = joinEndings(lined, text);
      if (hunk.moveTo) {
        const dest = env.resolve(hunk.moveTo);
        const destShown = displayPath(env.root, dest);
        if (dest !== abs && (await current(dest)) !== null)
          throw new ToolInputError(
            `Cannot create ${destShown}: the file already exists. Delete it earlier in the same patch to replace it.`,
          );
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
  for (const [abs, content] of pending)
    changes.push({
      abs,
      shown: displayPath(env.root, abs),
      content,
      ...(links.has(abs) ? { link: true } : {}),
    });
  // links cannot be recreated through a bridge: they go last, once every other change is written
  changes.sort((a, b) => Number(a.link ?? false) - Number(b.link ?? false));
  return { changes, summary, lines };
}

/** Writes the planned changes; if one fails, every file already touched is put back. */
async function commit(env: FsEnv, changes: Change[], signal?: AbortSignal): Promise<void> {
  const backups: Array<{ abs: string; before: Buffer | null }> = [];
  const createdDirs: string[] = [];
  try {
    for (const change of changes) {
      throwIfAborted(signal);
      if (change.link) {
        if (!env.bridge.remove)
          throw new ToolInputError("This file-system bridge cannot delete files (remove missing)");
        await env.bridge.remove({ filePath: change.abs });
        continue;
      }
      const st = await env.bridge.stat({ filePath: change.abs });
      const before = st?.type === "file" ? await env.bridge.readFile({ filePath: change.abs }) : null;
      backups.push({ abs: change.abs, before });
      if (change.content === null) {
        if (!env.bridge.remove)
          throw new ToolInputError("This file-system bridge cannot delete files (remove missing)");
        if (before !== null) await env.bridge.remove({ filePath: change.abs });
      } else {
        createdDirs.push(...(await missingDirs(env, path.dirname(change.abs))));
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
    // directories this patch created (a move into a new folder) go too, deepest first
    for (const dir of [...new Set(createdDirs)].sort((a, b) => b.length - a.length))
      await removeCreatedDir(env, dir);
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
      // an envelope with nothing in it is an error, as in Codex and OpenClaw
      if (parsePatch(input).length === 0) throw new ToolInputError("No files were modified.");
      // the write lock of every file the patch touches (the same locks write and edit take),
      // held while its files are planned and written as a unit
      const touched = parsePatch(input).flatMap((h) => [
        h.path,
        ...(h.kind === "update" && h.moveTo ? [h.moveTo] : []),
      ]);
      return env.withWriteLock(touched.map(env.resolve), async () => {
        const { changes, summary, lines } = await plan(env, input);
        if (changes.length === 0)
          return { content: [{ type: "text", text: "No files were modified." }], details: { summary } };
        await env.journalled(
          "apply_patch",
          changes.map((c) => c.abs),
          () => commit(env, changes, signal),
        );
        // the session's own writes are what it has seen now
        for (const change of changes)
          if (change.content === null) env.seen.forget(change.abs);
          else env.seen.set(change.abs, change.content);
        return {
          content: [{ type: "text", text: `Success. Updated the following files:\n${lines.join("\n")}` }],
          details: { summary },
        };
      });
    },
  };
}
