import { open } from "node:fs/promises";

/**
 * Lines of a file read backwards from its end, newest first, until `stop` says enough: a 50 MB
 * transcript is read only as far back as its newest messages need, one 64 KB block at a time.
 */
export async function* linesFromEnd(file: string): AsyncGenerator<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const block = 64 * 1024;
    let position = size;
    let carry: Buffer[] = []; // the start of a line that began in an earlier block
    while (position > 0) {
      const length = Math.min(block, position);
      position -= length;
      const buf = Buffer.alloc(length);
      await handle.read(buf, 0, length, position);
      let end = length;
      for (let i = length - 1; i >= 0; i--) {
        if (buf[i] !== 0x0a) continue;
        const line = Buffer.concat([buf.subarray(i + 1, end), ...carry]);
        carry = [];
        end = i;
        if (line.length > 0) yield line.toString("utf8");
      }
      carry = [buf.subarray(0, end), ...carry];
    }
    const first = Buffer.concat(carry);
    if (first.length > 0) yield first.toString("utf8");
  } finally {
    await handle.close();
  }
}
