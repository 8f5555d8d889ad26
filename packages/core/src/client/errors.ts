import { brandedInstanceOf, hasErrorBrand } from "../clawtools-error.js";
import { ToolProtocolError } from "../errors.js";
import type { ClientCapability } from "./channel.js";

const MISSING = Symbol.for("clawtools.error.ClientCapabilityError");

/** JSON-RPC: the client did not declare a capability the request needs (MCP's -32021). */
export const MISSING_CLIENT_CAPABILITY_CODE = -32021;

/**
 * A tool asked its client for something the client did not declare (`sampling`, `elicitation`,
 * `roots`): a protocol error, so an MCP server answers -32021 naming the capability instead of
 * an error result.
 */
export class ClientCapabilityError extends ToolProtocolError {
  static override readonly marker: symbol = MISSING;
  readonly [MISSING] = true;
  readonly capability: ClientCapability;
  constructor(capability: ClientCapability, what = `this tool`) {
    super(
      `${what} needs the client's ${capability} capability, which this client did not declare: use a client that supports ${capability}`,
      MISSING_CLIENT_CAPABILITY_CODE,
    );
    this.name = "ClientCapabilityError";
    this.capability = capability;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass calls this with its own constructor
    return brandedInstanceOf(this, MISSING, value);
  }
}

/** A ClientCapabilityError from any copy of core. */
export function isClientCapabilityError(error: unknown): error is ClientCapabilityError {
  return hasErrorBrand(error, MISSING);
}
