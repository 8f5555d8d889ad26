import { ClawtoolsError } from "@clawtools/core";
import { isConfigProblem, isUsageError, USAGE_ERROR } from "./usage.js";

/** A mistake in how the command was invoked: one line on stderr, exit code 2. */
export class UsageError extends ClawtoolsError {
  static override readonly marker: symbol = USAGE_ERROR;
  readonly [USAGE_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_USAGE";
  }
  override name = "UsageError";
}

/** Runs `fn`, turning a configuration the bundle refused into a UsageError (one line, exit 2). */
export function asUsageError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isConfigProblem(error) && !isUsageError(error)) throw new UsageError(error.message);
    throw error;
  }
}
