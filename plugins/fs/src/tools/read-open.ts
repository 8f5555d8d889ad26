import type { FsBridge, FsStat } from "@clawtools/core";
import type { WorkspaceHandle } from "@clawtools/core/safety";
import { isNodeBridge } from "../bridge/node-bridge.js";

/** What a read needs from one opened file: its stat, its first bytes and a way to stream it. */
export interface OpenedFile {
  stat: FsStat;
  /** The first chunk (up to 64 KB): image magic bytes, and usually the whole page. */
  head: Buffer;
  /** Streams the file from its first byte (the head first, then the rest). */
  source: Pick<FsBridge, "readFile" | "readStream">;
  close(): Promise<void>;
}

const FIRST_CHUNK = 64 * 1024;
const NEXT_CHUNK = 1024 * 1024;

/**
 * The warm-read fast path on the local disk: one verified walk opens the file and everything
 * else (stat, image sniffing, the page) reads that descriptor, instead of a walk per step.
 * Null when the bridge is not the local disk or the open fails for any reason; the caller then
 * takes the general path, which also words every error (missing, directory, link leading out).
 */
export async function openForRead(bridge: FsBridge, filePath: string): Promise<OpenedFile | null> {
  if (!isNodeBridge(bridge)) return null;
  // a small file on the local disk: read whole in place, nothing left open
  const small = await bridge.readSmall({ filePath, maxBytes: FIRST_CHUNK }).catch(() => null);
  if (small) {
    const { data, stat } = small;
    return {
      stat: { type: "file", size: stat.size, mtimeMs: stat.mtimeMs },
      head: data,
      source: {
        readFile: async () => data,
        async *readStream() {
          yield data;
        },
      },
      close: async () => {},
    };
  }
  let opened: WorkspaceHandle;
  try {
    opened = await bridge.openVerified({ filePath });
  } catch {
    return null;
  }
  const { handle, stat } = opened;
  // the size seen at open: reading stops there, so a regular file costs no extra empty read;
  // a file that reports 0 bytes (/proc, a file being written) is read until the end instead
  const size = stat.size;
  const sized = size > 0;
  const readAt = async (position: number, length: number) => {
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  };
  let head: Buffer;
  try {
    head = await readAt(0, sized ? Math.min(FIRST_CHUNK, size) : FIRST_CHUNK);
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }
  return {
    stat: { type: "file", size, mtimeMs: stat.mtimeMs },
    head,
    source: {
      readFile: () => handle.readFile(),
      async *readStream({ signal }) {
        yield head;
        let position = head.length;
        let length = FIRST_CHUNK;
        while (head.length > 0 && (!sized || position < size)) {
          signal?.throwIfAborted();
          length = Math.min(length * 2, NEXT_CHUNK);
          const chunk = await readAt(position, sized ? Math.min(length, size - position) : length);
          if (chunk.length === 0) return; // the end (or it shrank since it was opened)
          position += chunk.length;
          yield chunk;
        }
      },
    },
    close: () => opened.close(),
  };
}
