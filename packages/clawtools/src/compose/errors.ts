import { ClawtoolsError } from "@clawtools/core";
const BUNDLE_CONFIG_ERROR = Symbol.for("clawtools.error.BundleConfigError");

/**
 * A configuration composeBundle cannot compose: a key of the wrong shape, a plugin that cannot be
 * loaded or breaks the contract, a store or Gateway that cannot be reached. The message is the
 * whole story (what is wrong and how to fix it), one line.
 */
export class BundleConfigError extends ClawtoolsError {
  static override readonly marker: symbol = BUNDLE_CONFIG_ERROR;
  readonly [BUNDLE_CONFIG_ERROR] = true;
  override readonly code = "CLAWTOOLS_BUNDLE_CONFIG";
  override name = "BundleConfigError";
}

/** Whether `error` is a BundleConfigError from any copy of this package (its brand, not `instanceof`). */
export function isBundleConfigError(error: unknown): error is BundleConfigError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[BUNDLE_CONFIG_ERROR] === true
  );
}
