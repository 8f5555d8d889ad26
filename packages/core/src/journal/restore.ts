/** Undo and redo's last step: every path checked against what the journal left, then put back. */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { describe, type UndoStep } from "./entry.js";
import { JournalError } from "./errors.js";
import { applyState, type BlobStore, captureState, type FileState, sameState } from "./file-state.js";

/** Refuses when a path is not as the journal left it; otherwise puts every path in its target state. */
export async function restoreTargets(
  workspace: string,
  blobs: BlobStore,
  targets: Map<string, { expected: FileState; to: FileState }>,
  dryRun: boolean,
): Promise<UndoStep[]> {
  const steps: UndoStep[] = [];
  const rootReal = await realpath(workspace);
  for (const [rel, { expected, to }] of targets) {
    if (rel.split("/").includes("..") || path.isAbsolute(rel))
      throw new JournalError(`journal path ${rel} is outside the workspace`);
    const abs = path.join(workspace, rel);
    const parent = await realpath(path.dirname(abs)).catch(() => undefined);
    if (parent && parent !== rootReal && !parent.startsWith(`${rootReal}${path.sep}`))
      throw new JournalError(
        `${rel} now resolves outside the workspace (through a symlinked directory); nothing was restored`,
      );
    const now = (await captureState(abs, blobs)).state;
    if (now?.type === "dir" && expected?.type === "dir") {
      // a directory's own mode is what is compared; its contents are separate paths
    } else if (!sameState(now, expected))
      throw new JournalError(
        `${rel} changed outside the journal (it is ${describe(now)}, the journal left it ${describe(expected)}); nothing was restored. Undo refuses to overwrite it: save or revert it first.`,
      );
    if (to?.type === "file" && !to.hash)
      throw new JournalError(`${rel} was too large to copy; it cannot be restored`);
    // every copy is checked before anything changes: a missing or damaged one refuses it all
    if (to?.type === "file" && !sameState(now, to)) await blobs.verified(to.hash, rel);
    if (!sameState(now, to)) steps.push({ path: rel, from: now, to });
  }
  if (dryRun) return steps;
  // removals deepest first, then directories shallowest first, then files and links
  const depth = (p: string) => p.split("/").length;
  const removals = steps.filter((s) => s.to === null).sort((a, b) => depth(b.path) - depth(a.path));
  const dirs = steps.filter((s) => s.to?.type === "dir").sort((a, b) => depth(a.path) - depth(b.path));
  const rest = steps.filter((s) => s.to !== null && s.to.type !== "dir");
  for (const s of [...removals, ...dirs, ...rest])
    await applyState(path.join(workspace, s.path), s.to, blobs, s.path);
  return steps;
}
