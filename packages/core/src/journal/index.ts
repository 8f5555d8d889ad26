// @clawtools/core/journal: what a tool call changed in the workspace, so it can be undone.
export {
  applyState,
  BlobStore,
  captureKnownState,
  captureState,
  type FileState,
  sameState,
} from "./file-state.js";
export { isJournalError, JournalError } from "./errors.js";
export { beginJournal, journalFor } from "./instances.js";
export {
  Journal,
  type JournalChange,
  type JournalEntry,
  type JournalOptions,
  type JournalScope,
  type UndoStep,
} from "./journal.js";
export { DEFAULT_EXCLUDE, type Scan, type ScanOptions, scanTree } from "./scan.js";
