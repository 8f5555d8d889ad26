import { ClawtoolsError } from "@clawtools/core";
const GATEWAY_ERROR = Symbol.for("clawtools.error.GatewayError");

/** An error answered by the Gateway (a `res` frame with `ok:false`), or one the client met on its way there. */
export class GatewayError extends ClawtoolsError {
  static override readonly marker: symbol = GATEWAY_ERROR;
  readonly [GATEWAY_ERROR] = true;
  override readonly name = "GatewayError";
  /** The Gateway's error code (`INVALID_REQUEST`, `FORBIDDEN`, `UNAVAILABLE`…), or the client's own (`TIMEOUT`, `CLOSED`, `CONNECT_FAILED`). */
  override readonly code: string;
  readonly details?: unknown;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** The method the request was for, when there was one. */
  readonly method?: string;

  constructor(
    code: string,
    message: string,
    extra: { details?: unknown; retryable?: boolean; retryAfterMs?: number; method?: string } = {},
  ) {
    super(`${extra.method ? `gateway ${extra.method}: ` : "gateway: "}${code}: ${message}`);
    this.code = code;
    this.retryable = extra.retryable ?? false;
    if (extra.details !== undefined) this.details = extra.details;
    if (extra.retryAfterMs !== undefined) this.retryAfterMs = extra.retryAfterMs;
    if (extra.method !== undefined) this.method = extra.method;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isGatewayError(value);
  }
}

/** Whether `error` is a GatewayError from any copy of the package (its brand, not the prototype). */
export function isGatewayError(error: unknown): error is GatewayError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[GATEWAY_ERROR] === true
  );
}
