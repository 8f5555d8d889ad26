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
}

/** Removes elements a person would not see (and scripts/styles), in place. */
export function removeHiddenElements(document: {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}): void {
  const remove = (selector: string, keep?: (el: DomElement) => boolean) => {
    for (const el of Array.from(document.querySelectorAll(selector))) if (!keep?.(el)) el.remove();
  };
  remove("script, style, noscript, template, iframe, object, embed, svg");
  remove("[hidden], [aria-hidden='true'], input[type='hidden']");
  remove("[style]", (el) => !HIDDEN_STYLE.test(el.getAttribute("style") ?? ""));
  remove("[class]", (el) => !HIDDEN_CLASS.test(el.getAttribute("class") ?? ""));
}

/** Site navigation is not content: nav landmarks, navigation tables and bars, breadcrumbs. */
export function removeNavigation(document: {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}): void {
  const selector =
    "nav, [role='navigation'], .navigation, .navheader, .navfooter, .breadcrumbs, .breadcrumb, table[summary^='Navigation']";
  for (const el of Array.from(document.querySelectorAll(selector))) el.remove();
}
