import { ClawtoolsError } from "@clawtools/core";
// The error a job or patch that breaks the rules raises, branded so any copy of the package knows it.

export const CRON_VALIDATION_ERROR = Symbol.for("clawtools.error.CronValidationError");

/** A validation failure of a job or patch; the tool reports it as `invalid cron.<action> params: <message>`. */
export class CronValidationError extends ClawtoolsError {
  static override readonly marker: symbol = CRON_VALIDATION_ERROR;
  readonly [CRON_VALIDATION_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_CRON_VALIDATION";
  }
  override name = "CronValidationError";
}

/** Whether `error` is a CronValidationError from any copy of this package (its brand, not `instanceof`). */
export function isCronValidationError(error: unknown): error is CronValidationError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[CRON_VALIDATION_ERROR] === true
  );
}

export const fail = (message: string): never => {
  throw new CronValidationError(message);
};
