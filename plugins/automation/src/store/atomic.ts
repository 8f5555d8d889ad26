import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a file whole or not at all: a temp file beside it, flushed (unless `sync: false`, for
 * writes that only other processes need to see at once), then renamed over it.
 */
export async function writeAtomic(
  file: string,
  data: string,
  options: { sync?: boolean } = {},
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.writeFile(data);
    if (options.sync !== false) await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
