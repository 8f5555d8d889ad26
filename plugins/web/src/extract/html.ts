/// <reference path="../types/joplin-turndown-plugin-gfm.d.ts" />
import type TurndownService from "turndown";
import { type DomElement, removeUnseenAndNavigation, stripInvisibleUnicode } from "./visibility.js";

export type ExtractMode = "markdown" | "text";

export interface Extracted {
  text: string;
  title?: string;
  extractor: "readability" | "raw-html";
}

export interface ExtractOptions {
  /** The page's address: relative links and images are made absolute against it (or its `<base href>`). */
  url?: string;
}

const MAX_READABILITY_CHARS = 1_000_000;
const MAX_NESTING = 3_000;

interface ExtractionStack {
  parseHTML: typeof import("linkedom").parseHTML;
  Readability: typeof import("@mozilla/readability").Readability;
  turndown: TurndownService;
}

let stack: Promise<ExtractionStack> | undefined;
/**
 * linkedom, Readability and Turndown (with GFM tables) load on the first HTML page, not when
 * the section is imported: a toolset that never fetches HTML never pays for them.
 */
function loadExtractionStack(): Promise<ExtractionStack> {
  stack ??= Promise.all([
    import("linkedom"),
    import("@mozilla/readability"),
    import("turndown"),
    import("@joplin/turndown-plugin-gfm"),
  ]).then(([linkedom, readability, turndownModule, gfmModule]) => {
    const Turndown = (turndownModule as { default: typeof TurndownService }).default;
    const turndown = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
    turndown.use(gfmModule.gfm);
    return { parseHTML: linkedom.parseHTML, Readability: readability.Readability, turndown };
  });
  stack.catch(() => {
    stack = undefined;
  });
  return stack;
}

/** The HTML-to-markdown converter web_fetch uses (Turndown with GFM tables), loaded on demand. */
export async function loadMarkdownConverter(): Promise<{ turndown(html: string): string }> {
  return (await loadExtractionStack()).turndown;
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

type Doc = ReturnType<ExtractionStack["parseHTML"]>["document"];
interface El {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  textContent: string | null;
}

function textOf(lib: ExtractionStack, html: string): string {
  const { document } = lib.parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks = document.querySelectorAll(
    "p, div, li, h1, h2, h3, h4, h5, h6, tr, br, pre, section, article",
  );
  for (const el of Array.from(blocks) as Array<{ insertAdjacentText(where: string, text: string): void }>) {
    el.insertAdjacentText("afterend", "\n");
  }
  return (document.body?.textContent ?? "").replace(/[ \t]+/g, " ");
}

/** A fragment (no `<body>`) is put into a document of its own so its text is not lost. */
function asDocument(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  const inner = html.replace(/<!doctype[^>]*>|<\/?(html|head|body)(\s[^>]*)?>/gi, "");
  return `<!doctype html><html><head></head><body>${inner}</body></html>`;
}

/** The base links resolve against: the page's `<base href>`, else its URL. */
function baseOf(document: Doc, pageUrl: string | undefined): URL | undefined {
  try {
    const base = pageUrl ? new URL(pageUrl) : undefined;
    const declared = (document.querySelector("base[href]") as El | null)?.getAttribute("href");
    return declared ? new URL(declared, base) : base;
  } catch {
    return undefined; // an unusable base leaves links as they are
  }
}

/** Makes a link or image point where the page says, absolute; script and data links are dropped. */
function absolutise(el: DomElement & El, base: URL | undefined): void {
  const attr = el.localName === "a" ? "href" : el.localName === "img" ? "src" : undefined;
  if (!attr) return;
  const value = el.getAttribute(attr)?.trim();
  if (!value) return;
  if (/^(javascript|vbscript|data):/i.test(value)) {
    el.removeAttribute(attr);
    return;
  }
  if (!base || /^https?:\/\//i.test(value)) return;
  try {
    el.setAttribute(attr, new URL(value, base).href);
  } catch {
    // keep what cannot be resolved
  }
}

/**
 * The parsed page without what a reader would not see, nor site navigation, nor `<title>` (read
 * first); links made absolute in the same walk.
 */
function cleanDocument(lib: ExtractionStack, html: string, url: string | undefined) {
  const { document } = lib.parseHTML(html);
  const title =
    (document.querySelector("title") as El | null)?.textContent?.replace(/\s+/g, " ").trim() || undefined;
  const base = baseOf(document, url);
  removeUnseenAndNavigation(document as never, (el) => {
    if (el.localName === "title") el.remove();
    else absolutise(el as DomElement & El, base);
  });
  return { document, title };
}

/**
 * HTML to readable markdown or text: hidden elements and invisible characters removed first,
 * links made absolute, then Readability (skipped for very large or deeply nested pages), else
 * a basic cleanup.
 */
export async function extractHtml(
  html: string,
  mode: ExtractMode,
  options: ExtractOptions = {},
): Promise<Extracted> {
  const lib = await loadExtractionStack();
  const page = asDocument(html);
  let { document, title } = cleanDocument(lib, page, options.url);
  const render = (content: string) =>
    mode === "markdown" ? lib.turndown.turndown(content) : textOf(lib, content);
  const fits = (text: string) => text.length <= MAX_READABILITY_CHARS && estimateDepth(text) <= MAX_NESTING;
  // removal only shrinks a page: when the original fits, the cleaned one does, unserialised
  if (fits(page) || fits((document as unknown as { toString(): string }).toString())) {
    try {
      const article = new lib.Readability(document as never, { charThreshold: 100 }).parse();
      if (article?.content && (article.textContent ?? "").trim().length > 0) {
        // the page's own <title> beats Readability's guess (it cuts titles at ":" and "-")
        const best = stripInvisibleUnicode(title || article.title || "").trim();
        return {
          text: tidy(render(article.content)),
          ...(best ? { title: best } : {}),
          extractor: "readability",
        };
      }
    } catch {
      // fall through to the basic cleanup
    }
    // Readability edits the document it reads: start again from the page
    ({ document, title } = cleanDocument(lib, page, options.url));
  }
  const bodyHtml = document.body?.innerHTML ?? "";
  return {
    text: tidy(render(bodyHtml)),
    ...(title ? { title: stripInvisibleUnicode(title) } : {}),
    extractor: "raw-html",
  };
}
