// Zero-width, bidi controls, word joiner, BOM and Unicode tag characters: invisible to a reader,
// a classic carrier for hidden prompt injection.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;

export function stripInvisibleUnicode(text: string): string {
  return text.replace(INVISIBLE, "");
}

const HIDDEN_CLASS = /(^|\s)(sr-only|visually-hidden|screen-reader-only|hidden)(\s|$)/i;
const HIDDEN_STYLE =
  /(display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?![.\d])|font-size\s*:\s*0(?![.\d]))/i;

interface DomElement {
  remove(): void;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  localName: string;
}

interface DomDocument {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

const UNSEEN_TAGS = new Set(["script", "style", "noscript", "template", "iframe", "object", "embed", "svg"]);
const NAV_CLASS = /(^|\s)(navigation|navheader|navfooter|breadcrumbs?)(\s|$)/;

/** Would a person not see this element (hidden, script-like)? */
function isHidden(el: DomElement): boolean {
  if (UNSEEN_TAGS.has(el.localName)) return true;
  if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") return true;
  if (el.localName === "input" && el.getAttribute("type")?.toLowerCase() === "hidden") return true;
  const style = el.getAttribute("style");
  if (style && HIDDEN_STYLE.test(style)) return true;
  const cls = el.getAttribute("class");
  return cls !== null && HIDDEN_CLASS.test(cls);
}

/** Is this element site navigation (landmarks, navigation tables and bars, breadcrumbs)? */
function isNavigation(el: DomElement): boolean {
  if (el.localName === "nav" || el.getAttribute("role") === "navigation") return true;
  const cls = el.getAttribute("class");
  if (cls !== null && NAV_CLASS.test(cls)) return true;
  return el.localName === "table" && (el.getAttribute("summary") ?? "").startsWith("Navigation");
}

/** One walk over every element, removing those `unwanted` picks (descendants go with them). */
function removeWhere(document: DomDocument, unwanted: (el: DomElement) => boolean): void {
  for (const el of Array.from(document.querySelectorAll("*"))) if (unwanted(el)) el.remove();
}

/** Removes elements a person would not see (and scripts/styles), in place. */
export function removeHiddenElements(document: DomDocument): void {
  removeWhere(document, isHidden);
}

/** Hidden elements and site navigation (nav landmarks, navigation tables and bars, breadcrumbs), in one walk. */
export function removeUnseenAndNavigation(document: DomDocument): void {
  removeWhere(document, (el) => isHidden(el) || isNavigation(el));
}
