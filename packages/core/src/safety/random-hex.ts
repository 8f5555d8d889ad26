import { randomFillSync } from "node:crypto";

/**
 * Random hex for names (temp files, journal entry ids), drawn from a pool filled 4 KB at a time:
 * the same randomness as randomBytes, without its per-call cost (a native call and a buffer),
 * which showed in every small write. Bytes are never handed out twice.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

export function randomHex(bytes: number): string {
  if (bytes > pool.length) throw new RangeError(`randomHex: at most ${pool.length} bytes`);
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString("hex", used, used + bytes);
  used += bytes;
  return hex;
}
