// What the per-call pipeline exports for code around a call (the rest is exported from src/index.ts).
export { isAbortError } from "./abort.js";
export { type CallNotes, noteCall, runWithCallNotes } from "./call-notes.js";
