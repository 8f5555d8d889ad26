/// <reference path="../types/turndown-plugin-gfm.d.ts" />
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { gfm } from "turndown-plugin-gfm";
import { removeUnseenAndNavigation, stripInvisibleUnicode } from "./visibility.js";

export type ExtractMode = "markdown" | "text";

export interface Extracted {
  text: string;
  title?: string;
  extractor: "readability" | "raw-html";
}

const MAX_READABILITY_CHARS = 1_000_000;
const MAX_NESTING = 3_000;

let turndown: TurndownService | undefined;
function markdownOf(html: string): string {
  if (!turndown) {
    turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
    turndown.use(gfm);
  }
  return turndown.turndown(html);
}

/** Rough nesting depth: opening minus closing tags at the deepest point (cheap guard for Readability). */
function estimateDepth(html: string): number {
  // nesting can never exceed the number of tags: most pages are settled without the regex
  let tags = 0;
  for (let at = html.indexOf("<"); at !== -1 && tags <= MAX_NESTING; at = html.indexOf("<", at + 1)) tags++;
  if (tags <= MAX_NESTING) return tags;
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else if (!m[3] && !/^(br|hr|img|input|meta|link|area|base|col|embed|source|track|wbr)$/i.test(m[2]!))
      depth++;
    if (depth > max) max = depth;
    if (max > MAX_NESTING) break;
  }
  return max;
}

const tidy = (text: string) =>
  stripInvisibleUnicode(text)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

function textOf(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks = document.querySelectorAll(
    "p, div, li, h1, h2, h3, h4, h5, h6, tr, br, pre, section, article",
  );
  for (const el of Array.from(blocks) as Array<{ insertAdjacentText(where: string, text: string): void }>) {
    el.insertAdjacentText("afterend", "\n");
  }
  return (document.body?.textContent ?? "").replace(/[ \t]+/g, " ");
}

/** The parsed page without what a reader would not see, nor site navigation. */
function cleanDocument(html: string) {
  const { document } = parseHTML(html);
  removeUnseenAndNavigation(document as never);
  return document;
}

/**
 * HTML to readable markdown or text: hidden elements and invisible characters removed first,
 * then Readability (skipped for very large or deeply nested pages), else a basic cleanup.
 */
export function extractHtml(html: string, mode: ExtractMode): Extracted {
  let document = cleanDocument(html);
  const title = document.querySelector("title")?.textContent?.replace(/\s+/g, " ").trim() || undefined;
  const fits = (page: string) => page.length <= MAX_READABILITY_CHARS && estimateDepth(page) <= MAX_NESTING;
  // removal only shrinks a page: when the original fits, the cleaned one does, unserialised
  if (fits(html) || fits((document as unknown as { toString(): string }).toString())) {
    try {
      const article = new Readability(document as never, { charThreshold: 100 }).parse();
      if (article?.content && (article.textContent ?? "").trim().length > 0) {
        const body = mode === "markdown" ? markdownOf(article.content) : textOf(article.content);
        // the page's own <title> beats Readability's guess (it cuts titles at ":" and "-")
        const best = stripInvisibleUnicode(title || article.title || "").trim();
        return { text: tidy(body), ...(best ? { title: best } : {}), extractor: "readability" };
      }
    } catch {
      // fall through to the basic cleanup
    }
    // Readability edits the document it reads: start again from the page
    document = cleanDocument(html);
  }
  const bodyHtml = document.body?.innerHTML ?? html;
  const body = mode === "markdown" ? markdownOf(bodyHtml) : textOf(bodyHtml);
  return {
    text: tidy(body),
    ...(title ? { title: stripInvisibleUnicode(title) } : {}),
    extractor: "raw-html",
  };
}
