/** What the journal keeps per changing call, and the undo state beside it. */
import type { FileState } from "./file-state.js";
import type { ScanOptions } from "./scan.js";

export interface JournalChange {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  before: FileState;
  after: FileState;
}

export interface JournalEntry {
  id: string;
  tool: string;
  time: string;
  files: JournalChange[];
  /** Blob bytes this entry added to the journal. */
  bytes: number;
  /** Files too large to copy: changed, but not restorable. */
  skipped?: string[];
  /** The session whose call made the change (`ToolContext.sessionKey`), when known. */
  session?: string;
}

/** Which calls an operation sees: a session's only (the `undo` tool), or every call (the CLI). */
export interface JournalScope {
  session?: string;
}

export const inScope = (entry: JournalEntry, scope: JournalScope) =>
  !scope.session || entry.session === scope.session;

export interface UndoStep {
  path: string;
  from: FileState;
  to: FileState;
}

export interface JournalOptions extends ScanOptions {
  /** The journal's size bound in bytes (default 512 MB); the oldest entries go first. */
  maxBytes?: number;
}

export interface UndoState {
  /** Undone batches, most recent last: redo pops one. */
  undone: string[][];
  /** Entries undone and then superseded by a new change (never redone). */
  discarded: string[];
  dropped: number;
}

export const describe = (s: FileState) =>
  s === null
    ? "absent"
    : s.type === "file"
      ? `file ${s.hash.slice(0, 12)} mode ${s.mode.toString(8)}`
      : s.type === "symlink"
        ? `symlink -> ${s.target}`
        : "directory";
