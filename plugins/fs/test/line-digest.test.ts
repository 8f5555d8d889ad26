import { describe, expect, it } from "vitest";
import { type LineDigest, lineDigest, lineDigestOfBytes } from "../src/stale/line-digest.js";

// The digest as first written: one loop over every character. The faster forms (LF-only texts
// split by indexOf, ASCII bytes hashed undecoded, slices between turns) must give exactly this.
function reference(raw: string): LineDigest {
  const FNV_OFFSET = 0x811c9dc5;
  const FNV_PRIME = 0x01000193;
  const lines: number[] = [];
  let line = FNV_OFFSET;
  let whole = FNV_OFFSET;
  const start = raw.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    whole = Math.imul(whole ^ c, FNV_PRIME);
    if (i < start) continue;
    if (c === 10 || c === 13) {
      lines.push(line >>> 0);
      line = FNV_OFFSET;
      if (c === 13 && raw.charCodeAt(i + 1) === 10) {
        i++;
        whole = Math.imul(whole ^ 10, FNV_PRIME);
      }
    } else line = Math.imul(line ^ c, FNV_PRIME);
  }
  lines.push(line >>> 0);
  return { lines: Uint32Array.from(lines), whole: whole >>> 0, length: raw.length };
}

/** A deterministic pseudo-random generator (the same texts every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ["a", "lorem ", "x\u00e9", "\u4e2d", "\ud83d\ude00", "\t", "\n", "\r\n", "\r", "\n\n"];

function text(next: () => number, pieces: string[], length: number): string {
  let out = next() < 0.2 ? "\ufeff" : "";
  while (out.length < length) out += pieces[Math.floor(next() * pieces.length)];
  return out;
}

async function expectSame(bytes: Buffer): Promise<void> {
  const raw = bytes.toString("utf8");
  const want = reference(raw);
  expect(lineDigest(raw)).toEqual(want);
  expect(await lineDigestOfBytes(bytes)).toEqual(want);
}

describe("line digest", () => {
  it("is the reference digest on edge cases", async () => {
    for (const raw of ["", "\n", "a", "a\n", "\ufeff", "\ufeffa\nb", "\r", "\r\n", "a\r\nb\rc\n", "\n\n\n"])
      await expectSame(Buffer.from(raw));
    // bytes that are not UTF-8 are digested as their decoded text (replacement characters)
    await expectSame(Buffer.from([0x61, 0xff, 0x0a, 0xc3, 0x0a, 0x62]));
  });

  it("is the reference digest on 300 random texts (LF only, CR, non-ASCII, BOM)", async () => {
    const next = random(29);
    const ascii = ["a", "lorem ", "\t", "\n", "\n\n"];
    for (let n = 0; n < 300; n++) {
      const pieces = n % 3 === 0 ? ascii : n % 3 === 1 ? [...ascii, "\r\n", "\r"] : PIECES;
      await expectSame(Buffer.from(text(next, pieces, Math.floor(next() * 2000))));
    }
  });

  it("is the reference digest on texts longer than one slice, line ends across slice ends", async () => {
    const next = random(7);
    for (const pieces of [
      ["lorem ", "\n"],
      ["lorem ", "\r\n", "\n"],
      ["lorem ", "\u00e9", "\n", "\r"],
    ])
      await expectSame(Buffer.from(text(next, pieces, 400_000)));
    // a CRLF split by the end of the first slice (1 << 18 characters)
    await expectSame(Buffer.from(`${"a".repeat((1 << 18) - 1)}\r\n${"b".repeat(10)}\n`));
    await expectSame(Buffer.from(`${"a".repeat((1 << 18) - 1)}\n\n${"b".repeat(10)}`));
  });
});
