import { basename, dirname } from "node:path";
import { distance } from "../edit/hints.js";
import type { resolveFsEnv } from "../fs-env.js";

/** The longest prefix of `line` within `bytes` UTF-8 bytes that does not split a surrogate pair. */
export function prefixWithin(line: string, bytes: number): string {
  let cut = Math.min(line.length, bytes);
  while (cut > 0 && Buffer.byteLength(line.slice(0, cut)) > bytes) cut = Math.floor(cut * 0.9);
  const code = line.charCodeAt(cut - 1);
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut--;
  return line.slice(0, cut);
}

/** OpenClaw 9.6: up to three names in the same directory within 40% edits of the one asked for. */
export async function suggestNames(
  bridge: ReturnType<typeof resolveFsEnv>["bridge"],
  abs: string,
): Promise<string> {
  const wanted = basename(abs).toLowerCase();
  if (!bridge.readdir || wanted.length > 255) return "";
  const entries = await bridge.readdir({ filePath: dirname(abs) }).catch(() => []);
  const most = Math.max(1, Math.floor(wanted.length * 0.4));
  const near = entries
    .filter((e) => e.name.length <= 255)
    .map((e) => ({ name: e.name, d: distance(wanted, e.name.toLowerCase()) }))
    .filter(({ d }) => d <= most)
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, 3);
  return near.length ? ` Did you mean: ${near.map((n) => n.name).join(", ")}?` : "";
}

/** The first 16 bytes of a file (enough to sniff an image type). */
export async function firstBytes(
  bridge: ReturnType<typeof resolveFsEnv>["bridge"],
  filePath: string,
  signal?: AbortSignal,
) {
  if (!bridge.readStream) return (await bridge.readFile({ filePath })).subarray(0, 16);
  for await (const chunk of bridge.readStream({ filePath, ...(signal ? { signal } : {}) }))
    return chunk.subarray(0, 16);
  return Buffer.alloc(0);
}
