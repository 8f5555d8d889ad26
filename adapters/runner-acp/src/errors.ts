import { ClawtoolsError } from "@clawtools/core";
// The two errors the ACP transport raises, branded so any copy of the package recognises them.

const ACP_RPC_ERROR = Symbol.for("clawtools.error.AcpRpcError");

/** A JSON-RPC error answer: `code` and `message` as the agent sent them (or as this side raised them). */
export class AcpRpcError extends ClawtoolsError {
  static override readonly marker: symbol = ACP_RPC_ERROR;
  readonly [ACP_RPC_ERROR] = true;
  constructor(
    override readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "AcpRpcError";
  }
}

/** Whether `error` is an AcpRpcError from any copy of this package (its brand, not `instanceof`). */
export function isAcpRpcError(error: unknown): error is AcpRpcError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[ACP_RPC_ERROR] === true
  );
}

const ACP_CONNECTION_ERROR = Symbol.for("clawtools.error.AcpConnectionError");

/** Why a connection ended: the agent exited, wrote something that is not JSON-RPC, or was closed. */
export class AcpConnectionError extends ClawtoolsError {
  static override readonly marker: symbol = ACP_CONNECTION_ERROR;
  readonly [ACP_CONNECTION_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_ACP_CONNECTION";
  }
  /** `ended`: the agent's streams closed (it probably exited); `protocol`: it broke the protocol; `timeout`. */
  constructor(
    message: string,
    readonly kind: "ended" | "protocol" | "timeout" | "closed" = "closed",
  ) {
    super(message);
    this.name = "AcpConnectionError";
  }
}

/** Whether `error` is an AcpConnectionError from any copy of this package (its brand, not `instanceof`). */
export function isAcpConnectionError(error: unknown): error is AcpConnectionError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[ACP_CONNECTION_ERROR] === true
  );
}
