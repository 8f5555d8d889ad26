import { resolveStateDir } from "@clawtools/core/state";
import { type Journal, type JournalOptions, journalFor } from "@clawtools/core/journal";

/**
 * The undo journal of a workspace from code: `list()`, `diff(id)`, `undo(id, { dryRun })`,
 * `redo()`; the same journal the fs tools and exec write and `clawtools undo` reads.
 */
export function workspaceJournal(
  options: { workspaceDir: string; stateDir?: string } & JournalOptions,
): Journal {
  const { workspaceDir, stateDir, ...rest } = options;
  return journalFor(workspaceDir, resolveStateDir({ workspaceDir, ...(stateDir ? { stateDir } : {}) }), rest);
}
