import type { LoadedImage } from "./load.js";

type Sharp = typeof import("sharp");
let sharpModule: Promise<Sharp | undefined> | undefined;

// sharp is an optional dependency, loaded on the first image that needs resizing.
const loadSharp = () => {
  sharpModule ??= import("sharp").then((m) => (m.default ?? m) as Sharp).catch(() => undefined);
  return sharpModule;
};

/**
 * Downscales an image whose longest side is over `maxPixels` (what a vision model reads anyway),
 * keeping its format (PNG stays lossless, the rest become JPEG). Without sharp it is sent as is.
 */
export async function downscale(
  image: LoadedImage,
  maxPixels: number,
): Promise<LoadedImage & { resized?: { from: [number, number]; to: [number, number] } }> {
  if (image.mimeType === "image/gif") return image; // animated: leave frames alone
  const sharp = await loadSharp();
  if (!sharp) return image;
  const meta = await sharp(image.data).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (Math.max(width, height) <= maxPixels) return image;
  const pipeline = sharp(image.data).rotate().resize({ width: maxPixels, height: maxPixels, fit: "inside" });
  const png = image.mimeType === "image/png";
  const data = await (png ? pipeline.png() : pipeline.jpeg({ quality: 85 })).toBuffer();
  const out = await sharp(data).metadata();
  return {
    ...image,
    data,
    mimeType: png ? "image/png" : "image/jpeg",
    resized: { from: [width, height], to: [out.width ?? 0, out.height ?? 0] },
  };
}
