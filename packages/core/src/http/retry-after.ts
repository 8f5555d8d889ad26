/**
 * How long a `Retry-After` header asks the client to wait, in milliseconds: delta-seconds
 * (`120`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`). Undefined when the header is
 * absent or unreadable; a date in the past is 0. The caller caps the result.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // only the date forms: a bare number with a sign or fraction is not valid delta-seconds
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
