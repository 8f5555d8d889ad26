import { HIDDEN_CLASS_NAMES, UNSEEN_TAGS } from "./hidden-rules.js";
import { isStyleHidden } from "./style-hidden.js";

export { isStyleHidden, stripInvisibleUnicode } from "./style-hidden.js";

export interface DomElement {
  remove(): void;
  textContent?: string | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  localName: string;
}

interface DomDocument {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

interface CssRule {
  selectors: string[];
  declarations: string;
  /** Inside an at-rule (`@media`, `@supports`…): applies only sometimes. */
  conditional: boolean;
}

/** The style rules of a sheet, nested at-rules flattened and marked conditional. */
function cssRules(css: string, conditional = false, out: CssRule[] = []): CssRule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf("{", at);
    if (open === -1) break;
    let depth = 1;
    let close = open + 1;
    for (; close < text.length && depth > 0; close++) {
      if (text[close] === "{") depth++;
      else if (text[close] === "}") depth--;
    }
    const prelude = text
      .slice(at, open)
      .replace(/^[\s;]*(@[a-z-]+[^;{]*;\s*)*/i, "")
      .trim();
    const body = text.slice(open + 1, close - 1);
    if (prelude.startsWith("@")) cssRules(body, true, out);
    else if (prelude)
      out.push({ selectors: prelude.split(",").map((s) => s.trim()), declarations: body, conditional });
    at = close;
  }
  return out;
}

const SHOWS =
  /(^|;)\s*(display\s*:\s*(?!none)[a-z-]+|visibility\s*:\s*visible|opacity\s*:\s*(?!0*\.?0+\s*(;|$))[\d.]+)/i;

function select(document: DomDocument, selector: string): DomElement[] {
  try {
    return Array.from(document.querySelectorAll(selector));
  } catch {
    return []; // a selector linkedom cannot run
  }
}

/**
 * Elements a page's own `<style>` sheets hide: a rule outside any at-rule whose declarations
 * hide (the same tests as inline styles) and whose selector has no pseudo-class. Conservative:
 * an element that any rule of the sheets shows again (another class, a media query, a hover
 * state) is left in place. Linked stylesheets are not fetched.
 */
export function hiddenBySheets(document: DomDocument): Set<DomElement> {
  const hidden = new Set<DomElement>();
  const sheets = Array.from(document.querySelectorAll("style"))
    .map((el) => el.textContent ?? "")
    .filter((css) =>
      /\b(display|visibility|opacity|font-size|color|transform|clip|left|top|text-indent|height|width)\b/i.test(
        css,
      ),
    );
  if (sheets.length === 0) return hidden;
  const rules = sheets.flatMap((css) => cssRules(css));
  for (const rule of rules) {
    if (rule.conditional || !isStyleHidden(rule.declarations)) continue;
    for (const selector of rule.selectors)
      if (!selector.includes(":")) for (const el of select(document, selector)) hidden.add(el);
  }
  if (hidden.size === 0) return hidden;
  for (const rule of rules) {
    if (!SHOWS.test(rule.declarations)) continue;
    for (const selector of rule.selectors) {
      const plain = selector.replace(/::?[a-z-]+(\([^)]*\))?/gi, "").trim();
      if (plain) for (const el of select(document, plain)) hidden.delete(el);
    }
  }
  return hidden;
}

const NAV_CLASS = /(^|\s)(navigation|navheader|navfooter|breadcrumbs?)(\s|$)/;

/** Would a person not see this element (hidden by markup or inline CSS, script-like)? */
export function isHidden(el: DomElement): boolean {
  if (UNSEEN_TAGS.has(el.localName)) return true;
  if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden")?.trim().toLowerCase() === "true")
    return true;
  if (el.localName === "input" && el.getAttribute("type")?.toLowerCase() === "hidden") return true;
  const style = el.getAttribute("style");
  if (style && isStyleHidden(style)) return true;
  const cls = el.getAttribute("class");
  return (cls?.toLowerCase().split(/\s+/) ?? []).some((c) => HIDDEN_CLASS_NAMES.has(c));
}

/** Is this element site navigation (landmarks, navigation tables and bars, breadcrumbs)? */
function isNavigation(el: DomElement): boolean {
  if (el.localName === "nav" || el.getAttribute("role") === "navigation") return true;
  const cls = el.getAttribute("class");
  if (cls !== null && NAV_CLASS.test(cls)) return true;
  return el.localName === "table" && (el.getAttribute("summary") ?? "").startsWith("Navigation");
}

/**
 * One walk over every element, removing those `unwanted` picks (descendants go with them) and
 * handing the others to `kept` (which may see descendants of a removed element: harmless).
 */
function removeWhere(
  document: DomDocument,
  unwanted: (el: DomElement) => boolean,
  kept?: (el: DomElement) => void,
): void {
  for (const el of Array.from(document.querySelectorAll("*"))) {
    if (unwanted(el)) el.remove();
    else kept?.(el);
  }
}

/** Removes elements a person would not see (and scripts/styles), in place. */
export function removeHiddenElements(document: DomDocument): void {
  removeWhere(document, isHidden);
}

/**
 * Hidden elements and site navigation (nav landmarks, navigation tables and bars, breadcrumbs),
 * in one walk; `kept` sees every element that stays (to fix links in the same walk).
 */
export function removeUnseenAndNavigation(document: DomDocument, kept?: (el: DomElement) => void): void {
  const bySheet = hiddenBySheets(document);
  removeWhere(document, (el) => isHidden(el) || isNavigation(el) || bySheet.has(el), kept);
}
