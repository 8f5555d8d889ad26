import { ToolInputError } from "@clawtools/core";

/** Model input quoted in an error message: at most `max` characters, then how much was left out. */
export function quotePrefix(value: string, max = 80): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`;
}

/** A short prefix of model input, without quotes (for lists of commands). */
export function shortPrefix(value: string, max = 200): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

/** A number argument that must be finite and not negative (checked also when `execute` is called directly). */
export function refuseNegative(tool: string, name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new ToolInputError(
      `${tool}: ${name} must be a number of 0 or more (got ${quotePrefix(String(value), 40)}).`,
    );
}
