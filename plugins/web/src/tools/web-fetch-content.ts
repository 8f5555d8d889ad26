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
