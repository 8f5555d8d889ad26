import sharp from "sharp";

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

export const MAX_IMAGE_SIDE = 2000;
export const MAX_IMAGE_BYTES = 4.5 * 1024 * 1024;

export interface PreparedImage {
  data: Buffer;
  mimeType: string;
  /** Present when the image was resized: the note shown to the model. */
  note?: string;
}

/**
 * Fits an image within 2000×2000 px and 4.5 MB: PNG and JPEG are both tried and the smaller
 * kept, then JPEG quality steps, then smaller scales. Undecodable images are returned as they are.
 */
export async function prepareImage(data: Buffer, mimeType: string): Promise<PreparedImage> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data).metadata();
  } catch {
    return { data, mimeType };
  }
  const autoOriented = (meta.orientation ?? 1) >= 5;
  const width = (autoOriented ? meta.height : meta.width) ?? 0;
  const height = (autoOriented ? meta.width : meta.height) ?? 0;
  if (width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && data.length <= MAX_IMAGE_BYTES)
    return { data, mimeType };
  const fit = Math.min(1, MAX_IMAGE_SIDE / width, MAX_IMAGE_SIDE / height);
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
