import { ClawtoolsError } from "../clawtools-error.js";
const HTTP_ERROR = Symbol.for("clawtools.error.HttpError");

/** What went wrong: an error status, a body that is not JSON or not the expected shape, no answer, too slow. */
export type HttpErrorKind = "status" | "json" | "schema" | "network" | "timeout";

export interface HttpErrorDetails {
  kind: HttpErrorKind;
  /** The HTTP status, 0 when no answer came. */
  status: number;
  /** Who was called: the caller's label or the URL's origin (never its path or query). */
  target: string;
  /** At most 300 characters of the answer, secrets taken out. */
  bodyExcerpt?: string;
  /** Schema mismatches, one line each (`  - path: what was expected`). */
  issues?: string[];
  /** Requests sent, retries included. */
  attempts: number;
  /** The transport's error code (`ECONNREFUSED`, `UND_ERR_SOCKET`), when there was one. */
  code?: string;
}

/**
 * A configured endpoint failed. The message and fields carry the status and a short, redacted
 * excerpt of the body; never the request headers, the URL's path or query, or a known secret.
 * Recognise it with {@link isHttpError} (works across copies of core).
 */
export class HttpError extends ClawtoolsError {
  static override readonly marker: symbol = HTTP_ERROR;
  readonly [HTTP_ERROR] = true;
  readonly kind: HttpErrorKind;
  readonly status: number;
  readonly target: string;
  readonly bodyExcerpt: string | undefined;
  readonly issues: string[] | undefined;
  readonly attempts: number;
  /** The system's code of a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`…), else `CLAWTOOLS_HTTP`. */
  override readonly code: string;
  constructor(message: string, details: HttpErrorDetails) {
    super(message);
    this.name = "HttpError";
    this.kind = details.kind;
    this.status = details.status;
    this.target = details.target;
    this.bodyExcerpt = details.bodyExcerpt;
    this.issues = details.issues;
    this.attempts = details.attempts;
    this.code = details.code ?? "CLAWTOOLS_HTTP";
  }
}

/** Whether `error` is an {@link HttpError} from any copy of core. */
export function isHttpError(error: unknown): error is HttpError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[HTTP_ERROR] === true
  );
}
