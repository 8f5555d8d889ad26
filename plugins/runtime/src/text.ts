/** Model input quoted in an error message: at most `max` characters, then how much was left out. */
export function quotePrefix(value: string, max = 80): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`;
}

/** A short prefix of model input, without quotes (for lists of commands). */
export function shortPrefix(value: string, max = 200): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}
