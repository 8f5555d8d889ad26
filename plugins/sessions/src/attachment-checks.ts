import type { AttachmentLimits, SpawnAttachment } from "./attachments.js";

/*
 * The checks on a spawn's inline files, all made before anything is written: names (one plain
 * file name each, no duplicates), strict base64, and the per-file, total and count limits.
 */

/** The manifest a spawn writes beside its files (no attachment may take its name). */
export const MANIFEST = ".manifest.json";

class AttachmentError extends Error {}
const fail = (message: string): never => {
  throw new AttachmentError(message);
};

/**
 * Strict base64: the standard alphabet, padding only at the end, a length that is a multiple of
 * 4 (whitespace ignored), and a size check before decoding. Null when the text is not that or
 * would decode to more than `maxBytes`.
 */
export function decodeStrictBase64(value: string, maxBytes: number): Buffer | null {
  const maxEncoded = Math.ceil(maxBytes / 3) * 4;
  if (value.length > maxEncoded * 2) return null; // far too long even with whitespace: not scanned
  const compact = value.replace(/\s+/g, "");
  if (!compact || compact.length % 4 !== 0 || compact.length > maxEncoded) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const decoded = Buffer.from(compact, "base64");
  return decoded.byteLength > maxBytes ? null : decoded;
}

// A file name only: no separators, no NUL or control characters, not `.`/`..`, not the manifest.
function checkName(name: string): void {
  if (!name) fail("attachments_invalid_name (empty)");
  const bad =
    /[/\\\0]/.test(name) ||
    [...name].some((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
    }) ||
    name === "." ||
    name === ".." ||
    name === MANIFEST;
  if (bad) fail(`attachments_invalid_name (${name})`);
}

interface Prepared {
  name: string;
  data: Buffer;
}

/** Validates and decodes every file before anything is written; throws the first problem. */
export function prepare(attachments: SpawnAttachment[], limits: AttachmentLimits) {
  const seen = new Set<string>();
  const files: Prepared[] = [];
  let totalBytes = 0;
  for (const raw of attachments) {
    const name = typeof raw?.name === "string" ? raw.name.trim() : "";
    checkName(name);
    if (seen.has(name)) fail(`attachments_duplicate_name (${name})`);
    seen.add(name);
    const content = typeof raw?.content === "string" ? raw.content : "";
    let data: Buffer;
    if (raw?.encoding === "base64") {
      data =
        decodeStrictBase64(content, limits.maxFileBytes) ?? fail("attachments_invalid_base64_or_too_large");
    } else {
      data = Buffer.from(content, "utf8");
    }
    if (data.byteLength > limits.maxFileBytes)
      fail(
        `attachments_file_bytes_exceeded (name=${name} bytes=${data.byteLength} maxFileBytes=${limits.maxFileBytes})`,
      );
    totalBytes += data.byteLength;
    if (totalBytes > limits.maxTotalBytes)
      fail(
        `attachments_total_bytes_exceeded (totalBytes=${totalBytes} maxTotalBytes=${limits.maxTotalBytes})`,
      );
    files.push({ name, data });
  }
  return { files, totalBytes };
}

/** Keeps a mount path hint only when it is one plain path (it goes into a system prompt). */
export function sanitizeMountPath(value: unknown): string | undefined {
  const trimmed = typeof value === "string" ? value.trim() : "";
  if (!trimmed || /[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(trimmed)) return undefined;
  return /^[A-Za-z0-9._\-/:]+$/.test(trimmed) ? trimmed : undefined;
}
