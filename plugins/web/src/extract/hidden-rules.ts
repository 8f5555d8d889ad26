/**
 * What makes page text invisible to a reader, as data. Upstream source: OpenClaw
 * `src/agents/tools/web-fetch-visibility.ts` (release 2026.9.6: `HIDDEN_STYLE_PATTERNS`,
 * `HIDDEN_CLASS_NAMES`, the clip-path / transform / size / offset checks and the removed tags);
 * additions of ours are marked.
 */

/** Elements never rendered as page text. */
export const UNSEEN_TAGS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "canvas",
  "meta",
  // ours
  "link",
]);

/** Utility classes that hide an element (Bootstrap, Tailwind, WordPress, Drupal, a11y kits). */
export const HIDDEN_CLASS_NAMES: ReadonlySet<string> = new Set([
  "sr-only",
  "visually-hidden",
  "d-none",
  "hidden",
  "invisible",
  "screen-reader-only",
  "offscreen",
  // ours
  "visuallyhidden",
  "screen-reader-text",
  "element-invisible",
  "hide",
  "is-hidden",
  "u-hidden",
  "a11y-hidden",
]);

/** An offset at least this far off-screen hides what it moves (OpenClaw: four digits of px). */
export const OFFSCREEN_PX = 1000;
/** ours: the same distance in other units. */
export const OFFSCREEN_OTHER: Readonly<Record<string, number>> = {
  em: 50,
  rem: 50,
  vw: 100,
  vh: 100,
  "%": 100,
};
/** Properties that move an element (OpenClaw: left, top, text-indent, translateX/Y; ours: margins, right, bottom). */
export const OFFSET_PROPERTIES: readonly string[] = [
  "left",
  "top",
  "right",
  "bottom",
  "text-indent",
  "margin-left",
  "margin-top",
];
/** ours: a clip-path inset of at least this share hides the box (OpenClaw: any positive inset percentage). */
export const CLIP_INSET_HIDDEN_PERCENT = 50;
