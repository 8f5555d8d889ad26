import { ClawtoolsError } from "../clawtools-error.js";
/** Why an undo or redo was refused; branded so any copy of core recognises it. */
export const JOURNAL_ERROR = Symbol.for("clawtools.error.JournalError");

/** An undo or redo refused (a file changed outside the journal, an unknown id): nothing was changed. */
export class JournalError extends ClawtoolsError {
  static override readonly marker: symbol = JOURNAL_ERROR;
  readonly [JOURNAL_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_JOURNAL";
  }
  override name = "JournalError";
}

/** Whether `error` is a JournalError from any copy of core (its brand, not `instanceof`). */
export function isJournalError(error: unknown): error is JournalError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[JOURNAL_ERROR] === true
  );
}
