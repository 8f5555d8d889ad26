import { ClawtoolsError } from "../clawtools-error.js";
import { formatSize } from "../truncate.js";

const RESOURCE_TOO_LARGE = Symbol.for("clawtools.error.ResourceTooLargeError");

/**
 * A read of a resource larger than one read returns: -32602 with the URI, its size and the limit
 * in `data`, and the message says where to read it instead (its parts, when it has them).
 */
export class ResourceTooLargeError extends ClawtoolsError {
  static override readonly marker: symbol = RESOURCE_TOO_LARGE;
  readonly [RESOURCE_TOO_LARGE] = true;
  override name = "ResourceTooLargeError";
  override readonly code = -32602;
  readonly data: { uri: string; size: number; limit: number };
  constructor(
    readonly uri: string,
    readonly size: number,
    readonly limit: number,
    instead?: string,
  ) {
    super(
      `Resource ${uri} is ${formatSize(size)}, more than the ${formatSize(limit)} one read returns; ` +
        (instead ?? "it cannot be read as a resource"),
    );
    this.data = { uri, size, limit };
  }
}

/** Whether `error` is a ResourceTooLargeError from any copy of core (its brand, not `instanceof`). */
export function isResourceTooLargeError(error: unknown): error is ResourceTooLargeError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[RESOURCE_TOO_LARGE] === true
  );
}
