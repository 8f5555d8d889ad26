/**
 * What the stale guard keeps of a file too large to remember whole: a 32-bit hash of each line
 * (lines as the edit tools see them: CRLF, CR and LF alike end a line, a BOM is not text) and
 * one of the whole text, endings included. Enough to tell which lines changed since a read,
 * at 4 bytes a line instead of the file.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export interface LineDigest {
  /** FNV-1a of each line's characters. */
  lines: Uint32Array;
  /** FNV-1a of every character, endings and BOM included, and the text's length. */
  whole: number;
  length: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Characters hashed between two turns of the event loop (the async form). */
const SLICE = 1 << 20;

/** The digest of `raw`; `pause` is awaited between slices (the async form), never by the sync one. */
function* digestSteps(raw: string): Generator<void, LineDigest> {
  const lines: number[] = [];
  let line = FNV_OFFSET;
  let whole = FNV_OFFSET;
  const start = raw.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = 0; i < raw.length; i++) {
    if (i % SLICE === SLICE - 1) yield;
    const c = raw.charCodeAt(i);
    whole = Math.imul(whole ^ c, FNV_PRIME);
    if (i < start) continue;
    if (c === 10 || c === 13) {
      lines.push(line >>> 0);
      line = FNV_OFFSET;
      // CRLF is one ending
      if (c === 13 && raw.charCodeAt(i + 1) === 10) {
        i++;
        whole = Math.imul(whole ^ 10, FNV_PRIME);
      }
    } else line = Math.imul(line ^ c, FNV_PRIME);
  }
  lines.push(line >>> 0);
  return { lines: Uint32Array.from(lines), whole: whole >>> 0, length: raw.length };
}

/** The digest at once (for text an edit already holds in memory). */
export function lineDigest(raw: string): LineDigest {
  const steps = digestSteps(raw);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The digest in slices, the event loop getting a turn between them (for a file just read in the background). */
export async function lineDigestAsync(raw: string): Promise<LineDigest> {
  const steps = digestSteps(raw);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

export function sameDigest(a: LineDigest, b: LineDigest): boolean {
  return a.whole === b.whole && a.length === b.length && a.lines.length === b.lines.length;
}
