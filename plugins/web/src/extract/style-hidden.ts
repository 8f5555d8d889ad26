import {
  CLIP_INSET_HIDDEN_PERCENT,
  OFFSCREEN_OTHER,
  OFFSCREEN_PX,
  OFFSET_PROPERTIES,
} from "./hidden-rules.js";

// What inline text and style alone hide: invisible characters, hiding declarations (display, offscreen, transparent, clipped).

// Zero-width, bidi controls, word joiner, BOM, soft hyphen and Unicode tag characters:
// invisible to a reader, a classic carrier for hidden prompt injection.
const INVISIBLE =
  /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;

export function stripInvisibleUnicode(text: string): string {
  return text.replace(INVISIBLE, "");
}

/** The declarations of an inline style, last one winning, names lowercased. */
function declarations(style: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of style.split(";")) {
    const colon = part.indexOf(":");
    if (colon <= 0) continue;
    out.set(
      part.slice(0, colon).trim().toLowerCase(),
      part
        .slice(colon + 1)
        .replace(/!important/i, "")
        .trim()
        .toLowerCase(),
    );
  }
  return out;
}

const ZERO = /^[-+]?0*\.?0+(px|em|rem|pt|pc|%|vw|vh|ch|ex)?$/;

/** Is a length far enough off-screen to hide what it moves? */
function offscreen(value: string): boolean {
  const m = /^-\s*(\d+(?:\.\d+)?)(px|em|rem|vw|vh|%)?$/.exec(value.trim());
  if (!m) return false;
  const n = Number(m[1]);
  const unit = m[2] ?? "px";
  return unit === "px" ? n >= OFFSCREEN_PX : n >= (OFFSCREEN_OTHER[unit] ?? Number.POSITIVE_INFINITY);
}

/** A colour nobody can see: transparent, or an alpha of zero in any notation. */
function invisibleColour(value: string): boolean {
  if (value === "transparent") return true;
  const hex = /^#([0-9a-f]{4}|[0-9a-f]{8})$/.exec(value);
  if (hex) return /^0+$/.test(hex[1]!.length === 4 ? hex[1]!.slice(3) : hex[1]!.slice(6));
  const fn = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\((.*)\)$/.exec(value);
  if (!fn) return false;
  const parts = fn[1]!.split(/\s*[,/]\s*|\s+/).filter(Boolean);
  const hasAlpha = fn[1]!.includes("/") || parts.length === 4;
  return hasAlpha && ZERO.test(parts[parts.length - 1]!);
}

function hiddenByTransform(value: string): boolean {
  if (/scale(?:3d)?\(\s*[-+]?0*\.?0+\s*[,)\s]/.test(value) || /scale[xy]\(\s*[-+]?0*\.?0+\s*\)/.test(value))
    return true;
  for (const m of value.matchAll(/translate(?:x|y|3d)?\(([^)]*)\)/g))
    if (m[1]!.split(",").some((v) => offscreen(v))) return true;
  return false;
}

function hiddenByClip(clipPath: string | undefined, clip: string | undefined): boolean {
  if (clipPath && clipPath !== "none") {
    const inset = /inset\(\s*(\d+(?:\.\d+)?)%/.exec(clipPath);
    if (inset && Number(inset[1]) >= CLIP_INSET_HIDDEN_PERCENT) return true;
    if (/(circle|ellipse)\(\s*0*\.?0+(px|%)?[\s)]/.test(clipPath)) return true;
  }
  if (clip) {
    const rect = /rect\(([^)]*)\)/.exec(clip);
    if (rect) {
      const sides = rect[1]!.split(/[\s,]+/).filter(Boolean);
      if (sides.length === 4 && sides.every((s) => ZERO.test(s) || s === "1px" || s === "auto")) return true;
    }
  }
  return false;
}

/** Would this inline style hide the element's text from a reader? */
export function isStyleHidden(style: string): boolean {
  const d = declarations(style);
  const get = (k: string) => d.get(k);
  if (get("display") === "none") return true;
  if (get("visibility") === "hidden" || get("visibility") === "collapse") return true;
  const opacity = get("opacity");
  if (opacity !== undefined && ZERO.test(opacity)) return true;
  const fontSize = get("font-size");
  if (fontSize !== undefined && ZERO.test(fontSize)) return true;
  const colour = get("color");
  if (colour !== undefined && invisibleColour(colour.replace(/\s+/g, " "))) return true;
  const transform = get("transform");
  if (transform && hiddenByTransform(transform)) return true;
  if (hiddenByClip(get("clip-path"), get("clip"))) return true;
  if (OFFSET_PROPERTIES.some((p) => offscreen(get(p) ?? ""))) return true;
  const overflowHidden = /^(hidden|clip)$/.test(
    get("overflow") ?? get("overflow-y") ?? get("overflow-x") ?? "",
  );
  const zeroBox = ["width", "height", "max-width", "max-height"].some((p) => ZERO.test(get(p) ?? "x"));
  return overflowHidden && zeroBox;
}
