/**
 * Error classes with an identity that survives two copies of core in one process (an app and a
 * plugin each resolving their own): every error carries a `Symbol.for` marker, the `isX(e)`
 * guards test the marker, and `instanceof` uses it too, so neither depends on which copy
 * created the error.
 */

import { brandedInstanceOf, ClawtoolsError, hasErrorBrand } from "./clawtools-error.js";

const INPUT = Symbol.for("clawtools.error.ToolInputError");
const AUTHORIZATION = Symbol.for("clawtools.error.ToolAuthorizationError");
const UNAVAILABLE = Symbol.for("clawtools.error.ToolUnavailableError");

/** Bad input from the model: status 400. The message is shown to the model as-is. */
export class ToolInputError extends ClawtoolsError {
  static override readonly marker: symbol = INPUT;
  readonly status: number = 400;
  readonly [INPUT] = true;
  override get code(): string {
    return "CLAWTOOLS_TOOL_INPUT";
  }
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass calls this with its own constructor
    return brandedInstanceOf(this, INPUT, value);
  }
}

/** The caller may not do this: status 403. */
export class ToolAuthorizationError extends ToolInputError {
  static override readonly marker: symbol = AUTHORIZATION;
  override readonly status: number = 403;
  readonly [AUTHORIZATION] = true;
  override get code(): string {
    return "CLAWTOOLS_TOOL_AUTHORIZATION";
  }
  constructor(message: string) {
    super(message);
    this.name = "ToolAuthorizationError";
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass calls this with its own constructor
    return brandedInstanceOf(this, AUTHORIZATION, value);
  }
}

export const OWNER_ONLY_TOOL_ERROR = "Tool restricted to owner senders.";

/**
 * Thrown by a tool factory that cannot build its tool in this context. The registry
 * reports the reason in its diagnostics (`fs/read: no workspace root`).
 */
export class ToolUnavailableError extends ClawtoolsError {
  static override readonly marker: symbol = UNAVAILABLE;
  readonly [UNAVAILABLE] = true;
  override get code(): string {
    return "CLAWTOOLS_TOOL_UNAVAILABLE";
  }
  constructor(reason: string) {
    super(reason);
    this.name = "ToolUnavailableError";
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass calls this with its own constructor
    return brandedInstanceOf(this, UNAVAILABLE, value);
  }
}

/** Bad input from the model (a ToolInputError from any copy of core, authorization errors included). */
export function isToolInputError(error: unknown): error is ToolInputError {
  return hasErrorBrand(error, INPUT);
}

/** The caller may not do this (a ToolAuthorizationError from any copy of core). */
export function isToolAuthorizationError(error: unknown): error is ToolAuthorizationError {
  return hasErrorBrand(error, AUTHORIZATION);
}

/** A factory could not build its tool (a ToolUnavailableError from any copy of core). */
export function isToolUnavailableError(error: unknown): error is ToolUnavailableError {
  return hasErrorBrand(error, UNAVAILABLE);
}

const PROTOCOL = Symbol.for("clawtools.error.ToolProtocolError");

/**
 * The call could not be carried out at all (an internal failure, not the tool's own error): the
 * wrap pipeline passes it through instead of making it an error result, so an MCP server answers a
 * JSON-RPC error (`code`, default -32603) and a task that hit it ends `failed`, not `completed`.
 */
export class ToolProtocolError extends ClawtoolsError {
  static override readonly marker: symbol = PROTOCOL;
  readonly [PROTOCOL] = true;
  override readonly code: number;
  constructor(message: string, code = -32603) {
    super(message);
    this.name = "ToolProtocolError";
    this.code = code;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass calls this with its own constructor
    return brandedInstanceOf(this, PROTOCOL, value);
  }
}

/** A protocol-level failure of a call (a ToolProtocolError from any copy of core). */
export function isToolProtocolError(error: unknown): error is ToolProtocolError {
  return hasErrorBrand(error, PROTOCOL);
}
