/**
 * The one error family: every error class a clawtools package exports extends `ClawtoolsError`,
 * so a host tells any of them from other errors (`isClawtoolsError`) and one from another by
 * `code`. Each class keeps a `Symbol.for` brand of its own besides the family's, so its guard and
 * `instanceof` recognise an error made by another copy of the package (an app and a plugin each
 * resolving their own core).
 */

const FAMILY = Symbol.for("clawtools.error");

/** Whether `value` carries the brand `marker` (set by the class, any copy of it). */
export function hasErrorBrand(value: unknown, marker: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/**
 * `instanceof` for a branded class: by brand for the class whose own static `marker` is `own`
 * (any copy of its package), by the prototype chain for subclasses written elsewhere.
 */
export function brandedInstanceOf(ctor: object, own: symbol, value: unknown): boolean {
  if (Object.hasOwn(ctor, "marker") && (ctor as { marker: symbol }).marker === own)
    return hasErrorBrand(value, own);
  return Function.prototype[Symbol.hasInstance].call(ctor, value);
}

export abstract class ClawtoolsError extends Error {
  static readonly marker: symbol = FAMILY;
  readonly [FAMILY] = true;
  /**
   * What went wrong, stable across versions and messages: `CLAWTOOLS_<WHAT>` for clawtools' own
   * errors, the remote side's code where one carries it (a Gateway's `UNAVAILABLE`, a JSON-RPC
   * number).
   */
  abstract readonly code: string | number;

  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass calls this with its own constructor
    return brandedInstanceOf(this, FAMILY, value);
  }
}

/** Whether `error` is a clawtools error from any package and any copy of it. */
export function isClawtoolsError(error: unknown): error is ClawtoolsError {
  return hasErrorBrand(error, FAMILY);
}
