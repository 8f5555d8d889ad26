export { applyState, BlobStore, captureState, type FileState, sameState } from "./file-state.js";
export {
  beginJournal,
  Journal,
  type JournalChange,
  type JournalEntry,
  JournalError,
  type JournalOptions,
  isJournalError,
  journalFor,
  type UndoStep,
} from "./journal.js";
export { DEFAULT_EXCLUDE, type Scan, type ScanOptions, scanTree } from "./scan.js";
