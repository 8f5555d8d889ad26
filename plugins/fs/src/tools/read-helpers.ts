import { basename, dirname } from "node:path";
import { distance } from "../edit/hints.js";
import type { resolveFsEnv } from "../fs-env.js";

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
