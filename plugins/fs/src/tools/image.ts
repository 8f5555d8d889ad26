import type sharpModule from "sharp";

const SIGNATURES: Array<[string, (b: Buffer) => boolean]> = [
  ["image/png", (b) => b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a],
  ["image/jpeg", (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString("latin1"))],
  [
    "image/webp",
    (b) =>
      b.length >= 12 &&
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP",
  ],
];

/** MIME type from magic bytes; only png, jpeg, gif and webp count as images (never the extension). */
export function detectImageMime(head: Buffer): string | undefined {
  return SIGNATURES.find(([, test]) => test(head))?.[0];
}

/** OpenClaw's default longest side for images sent to a model (DEFAULT_IMAGE_MAX_DIMENSION_PX). */
export const MAX_IMAGE_SIDE = 1200;
export const MAX_IMAGE_BYTES = 4.5 * 1024 * 1024;

export interface PreparedImage {
  data: Buffer;
  mimeType: string;
  /** Present when the image was resized (or could not be): the note shown to the model. */
  note?: string;
}

type Sharp = typeof sharpModule;
let sharpLoading: Promise<Sharp | null> | undefined;
/** sharp (native, optional) is loaded on the first image that needs resizing, never at import. */
function loadSharp(): Promise<Sharp | null> {
  sharpLoading ??= import("sharp").then(
    (mod) => ((mod as { default?: Sharp }).default ?? (mod as unknown as Sharp)) as Sharp,
    () => null,
  );
  return sharpLoading;
}

/** Width and height from the header bytes (png, gif, webp, jpeg), without decoding. */
export function imageSize(b: Buffer, mimeType: string): { width: number; height: number } | undefined {
  if (mimeType === "image/png" && b.length >= 24)
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (mimeType === "image/gif" && b.length >= 10)
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (mimeType === "image/webp" && b.length >= 30) {
    const kind = b.subarray(12, 16).toString("latin1");
    if (kind === "VP8 ") return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    if (kind === "VP8L") {
      const bits = b.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (kind === "VP8X") return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
    return undefined;
  }
  if (mimeType === "image/jpeg") {
    // walk the markers to the first start-of-frame (SOF0..SOF15 except DHT, JPG and DAC)
    let at = 2;
    while (at + 9 < b.length) {
      if (b[at] !== 0xff) return undefined;
      const marker = b[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      const length = b.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
      at += 2 + length;
    }
  }
  return undefined;
}

/**
 * Fits an image within `maxSide`×`maxSide` px (default 1200) and 4.5 MB: PNG and JPEG are both
 * tried and the smaller kept, then JPEG quality steps, then smaller scales. Images that already
 * fit never load sharp; undecodable images are returned as they are.
 */
export async function prepareImage(
  data: Buffer,
  mimeType: string,
  maxSide: number = MAX_IMAGE_SIDE,
): Promise<PreparedImage> {
  const header = imageSize(data, mimeType);
  if (header && header.width <= maxSide && header.height <= maxSide && data.length <= MAX_IMAGE_BYTES)
    return { data, mimeType };
  const sharp = await loadSharp();
  if (!sharp) {
    return {
      data,
      mimeType,
      note: "[Image not resized: the optional sharp package is not installed. It is sent at its original size.]",
    };
  }
  let meta: sharpModule.Metadata;
  try {
    meta = await sharp(data).metadata();
  } catch {
    return { data, mimeType };
  }
  const autoOriented = (meta.orientation ?? 1) >= 5;
  const width = (autoOriented ? meta.height : meta.width) ?? 0;
  const height = (autoOriented ? meta.width : meta.height) ?? 0;
  if (width <= maxSide && height <= maxSide && data.length <= MAX_IMAGE_BYTES) return { data, mimeType };
  const fit = Math.min(1, maxSide / width, maxSide / height);
  const attempt = async (scale: number, quality?: number) => {
    const w = Math.max(1, Math.round(width * fit * scale));
    const h = Math.max(1, Math.round(height * fit * scale));
    const base = sharp(data).rotate().resize(w, h, { fit: "fill" });
    const jpeg = {
      data: await base
        .clone()
        .jpeg({ quality: quality ?? 85 })
        .toBuffer(),
      mimeType: "image/jpeg",
      w,
      h,
    };
    if (quality !== undefined) return jpeg;
    const png = {
      data: await base.clone().png({ compressionLevel: 9 }).toBuffer(),
      mimeType: "image/png",
      w,
      h,
    };
    return png.data.length <= jpeg.data.length ? png : jpeg;
  };
  let best = await attempt(1);
  for (const quality of [85, 70, 55, 40]) {
    if (best.data.length <= MAX_IMAGE_BYTES) break;
    best = await attempt(1, quality);
  }
  for (const scale of [0.75, 0.5, 0.35, 0.25]) {
    if (best.data.length <= MAX_IMAGE_BYTES || Math.min(width, height) * fit * scale < 100) break;
    best = await attempt(scale, 70);
  }
  const factor = (width / best.w).toFixed(2);
  return {
    data: best.data,
    mimeType: best.mimeType,
    note: `[Image: original ${width}x${height}, displayed at ${best.w}x${best.h}. Multiply coordinates by ${factor} to map to original image.]`,
  };
}
