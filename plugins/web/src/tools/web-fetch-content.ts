import { sanitizeExternalText, wrapExternalContent } from "@clawtools/core";
import { type ExtractMode, extractHtml } from "../extract/html.js";
import { stripInvisibleUnicode } from "../extract/visibility.js";

// A fetched body as text (by content type), and that text wrapped as untrusted within a size budget.

export async function extract(raw: string, contentType: string, mode: ExtractMode, url: string) {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "text/markdown")
    return { text: stripInvisibleUnicode(raw), extractor: "cf-markdown" as const };
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return { text: JSON.stringify(JSON.parse(raw), null, 2), extractor: "json" as const };
    } catch {
      return { text: raw, extractor: "raw" as const };
    }
  }
  if (type === "text/html" || type === "application/xhtml+xml" || /^\s*<(!doctype html|html)/i.test(raw))
    return extractHtml(raw, mode, { url });
  return { text: stripInvisibleUnicode(raw), extractor: "raw" as const };
}

export const WITH_NOTICE = wrapExternalContent("", { source: "Web Fetch", includeWarning: true }).length;
export const BARE = wrapExternalContent("", { source: "Web Fetch" }).length;

/**
 * Cuts text so that the wrapped result fits `maxChars`, the wrapper included. The text is
 * sanitised before it is cut (sanitising is idempotent and never lengthens a prefix of sanitised
 * text), so the cut lands exactly on the budget however many markers or tokens were replaced.
 */
export function wrapWithin(
  text: string,
  maxChars: number,
): { wrapped: string; truncated: boolean; warning?: string } {
  const clean = sanitizeExternalText(text);
  const notice = WITH_NOTICE < maxChars;
  const room = Math.max(0, maxChars - (notice ? WITH_NOTICE : BARE));
  const truncated = clean.length > room;
  const wrapped = wrapExternalContent(truncated ? clean.slice(0, room) : clean, {
    source: "Web Fetch",
    ...(notice ? { includeWarning: true } : {}),
  });
  return {
    wrapped,
    truncated,
    // the notice does not fit: the markers stay, the banner goes
    ...(notice
      ? {}
      : { warning: "Security notice dropped to fit maxChars; the content is still untrusted." }),
  };
}

/** At most `max` code units, never ending between the halves of a surrogate pair. */
const cutSafe = (text: string, max: number) => {
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
};

/**
 * OpenClaw 9.6's budget for a result's metadata (the title, the warning): together at most
 * min(512, maxChars / 2) characters wrapped, each at most 256 inside its markers. What they take
 * comes off the body's `maxChars`, so the whole answer stays within what the caller asked for.
 */
export function metadataBudget(maxChars: number) {
  let remaining = Math.min(512, Math.floor(maxChars / 2));
  let used = 0;
  let truncated = false;
  return {
    /** `value` wrapped (no banner) within what is left, or undefined when nothing of it fits. */
    wrap(value: string | undefined): string | undefined {
      if (!value) return undefined;
      const clean = sanitizeExternalText(value);
      const kept = cutSafe(clean, Math.min(256, Math.max(0, remaining - BARE)));
      if (kept.length < clean.length) truncated = true;
      if (!kept) return undefined;
      const wrapped = wrapExternalContent(kept, { source: "Web Fetch" });
      remaining -= wrapped.length;
      used += wrapped.length;
      return wrapped;
    },
    /** Characters the wrapped metadata took. */
    get used() {
      return used;
    },
    /** Some metadata was cut or left out. */
    get truncated() {
      return truncated;
    },
  };
}
