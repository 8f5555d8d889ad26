import { open } from "node:fs/promises";
import { formatSize } from "../truncate.js";
import type { ResourceBody } from "./types.js";
import { ResourceTooLargeError } from "./too-large.js";

/** The most one resource read returns (4 MiB: as base64 it stays under the 8 MiB result limit). */
export const MAX_RESOURCE_READ_BYTES = 4 * 1024 * 1024;
/** The size of one part of a resource read in parts (`…/part/{part}`). */
export const RESOURCE_PART_BYTES = 1024 * 1024;

/** Whether a MIME type is read as text (everything else goes to the host as a base64 blob). */
export const isTextMime = (mimeType: string | undefined): boolean =>
  mimeType !== undefined &&
  (mimeType.startsWith("text/") || /^application\/(json|x-ndjson|jsonl|xml)\b/.test(mimeType));

export interface FileBodyOptions {
  /** The URI being read (named in the error when the file is too large). */
  uri: string;
  /** Text (UTF-8) or bytes. */
  text: boolean;
  /** Default `MAX_RESOURCE_READ_BYTES`. */
  maxBytes?: number;
  /** Where to read it instead, when it is too large (a parts template, a tool). */
  instead?: (size: number) => string;
}

/** The file opened for reading, or undefined when it does not exist. */
const openExisting = (file: string) =>
  open(file, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });

/**
 * A whole file as a resource body, or `ResourceTooLargeError` when it is larger than one read
 * returns (checked on the open file, before anything is read). Undefined when it does not exist.
 */
export async function readFileBody(
  file: string,
  options: FileBodyOptions,
): Promise<ResourceBody | undefined> {
  const maxBytes = options.maxBytes ?? MAX_RESOURCE_READ_BYTES;
  const handle = await openExisting(file);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw new ResourceTooLargeError(options.uri, size, maxBytes, options.instead?.(size));
    const data = await handle.readFile();
    return options.text ? data.toString("utf8") : new Uint8Array(data.buffer, data.byteOffset, data.length);
  } finally {
    await handle.close();
  }
}

/** How many parts of `partBytes` a file of `size` bytes is read in (at least one). */
export const partCount = (size: number, partBytes = RESOURCE_PART_BYTES): number =>
  Math.max(1, Math.ceil(size / partBytes));

/** A description of a file's parts, for a link or an error: which URIs to read. */
export const partsHint = (base: string, size: number, partBytes = RESOURCE_PART_BYTES): string =>
  `read it in ${partCount(size, partBytes)} parts of ${formatSize(partBytes)}: ${base}/part/0 to ${base}/part/${partCount(size, partBytes) - 1}`;

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/**
 * Part `part` (0-based) of a file read in parts of `partBytes`: only that range is read, so a
 * host reads a file of any size in pieces. Text parts start and end on a UTF-8 character
 * boundary (a character cut by the nominal boundary goes whole into the later part), so the
 * parts joined are the file. Undefined when the file or the part does not exist.
 */
export async function readFilePart(
  file: string,
  part: number,
  options: { text: boolean; partBytes?: number },
): Promise<ResourceBody | undefined> {
  const partBytes = options.partBytes ?? RESOURCE_PART_BYTES;
  if (!Number.isSafeInteger(part) || part < 0) return undefined;
  const handle = await openExisting(file);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (part >= partCount(size, partBytes)) return undefined;
    const nominalStart = part * partBytes;
    const nominalEnd = Math.min(size, nominalStart + partBytes);
    // three bytes before and one after: enough to find both character boundaries
    const from = Math.max(0, nominalStart - 3);
    const to = Math.min(size, nominalEnd + 1);
    const buffer = Buffer.alloc(to - from);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    const bytes = buffer.subarray(0, bytesRead);
    let start = nominalStart - from;
    let end = Math.min(nominalEnd - from, bytes.length);
    if (options.text) {
      for (let back = 0; back < 3 && start > 0 && isContinuation(bytes[start]); back++) start--;
      if (nominalEnd < size)
        for (let back = 0; back < 3 && end > start && isContinuation(bytes[end]); back++) end--;
    }
    const slice = bytes.subarray(start, end);
    return options.text ? slice.toString("utf8") : new Uint8Array(slice);
  } finally {
    await handle.close();
  }
}
