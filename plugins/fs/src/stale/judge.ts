/**
 * The stale guard's questions about a file now against what the session saw of it, whether it
 * saw the text or, for a file over MAX_SEEN_BYTES, only the digest of its lines.
 */
import { splitEndings } from "../edit/line-endings.js";
import { lineDigest, sameDigest } from "./line-digest.js";
import { changedLineRanges, changedRanges } from "./region.js";
import type { Seen } from "./seen-files.js";

/** Whether the file's text `raw` is what the session saw. */
export function unchangedSince(then: Seen, raw: string): boolean {
  return then.text !== undefined ? then.text === raw : sameDigest(then.digest, lineDigest(raw));
}

/**
 * Line ranges of the file now (`raw`; `text` its lines as the tools see them) that differ from
 * what the session saw, or undefined when it is as the session saw it (a big file's digest is
 * taken once for both answers).
 */
export function changedSince(then: Seen, raw: string, text: string): Array<[number, number]> | undefined {
  if (then.text !== undefined)
    return then.text === raw ? undefined : changedRanges(splitEndings(then.text).text, text);
  const now = lineDigest(raw);
  if (sameDigest(then.digest, now)) return undefined;
  return changedLineRanges(Array.from(then.digest.lines), Array.from(now.lines));
}

/** The text the session saw, as the tools see lines (undefined when only a digest was kept). */
export function seenText(then: Seen): string | undefined {
  return then.text !== undefined ? splitEndings(then.text).text : undefined;
}
