import type { RoleRef } from "./snapshot.js";

/**
 * Role refs over Playwright's AI snapshot, in one pass over its lines: unnamed structural
 * wrappers dropped (children lifted, their own text kept as `- text:` lines), every element
 * numbered `e1, e2…` (the same numbers with or without `interactive`) with its position among
 * elements of the same role and name (`[nth=n]`), the AI walk's own markers removed. One pass
 * and no per-line objects: this runs on every snapshot, beside Chromium's own walk.
 */
export interface RoleSnapshotLines {
  lines: string[];
  refs: Map<string, RoleRef>;
  boxes: Map<string, { x: number; y: number; width: number; height: number }>;
}

export const INTERACTIVE_ROLES = new Set([
  "button",
  "checkbox",
  "combobox",
  "link",
  "listbox",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
  "treeitem",
]);

export const STRUCTURAL_ROLES = new Set(["generic", "none", "presentation"]);

// One pass per line, no nested quantifiers: linear in the line's length.
export const ROLE_LINE = /^- ([a-z][a-z-]*)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;
export const BOX = / \[box=(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)\]/;
export const REF = /\[ref=([a-z0-9]+)\]/;
// what the AI walk adds to a line: its own ref, focus and pointer marks
const AI_MARKERS = / \[(?:ref=[a-z0-9]+|active|cursor=pointer)\]/g;
const ESCAPE = /\\(.)/g;

/** The line's tail without its box and the AI walk's markers (both start with ` [`). */
function strip(rest: string): string {
  if (!rest.includes(" [")) return rest;
  const unboxed = rest.includes(" [box=") ? rest.replace(BOX, "") : rest;
  return unboxed.replace(AI_MARKERS, "");
}

/**
 * The text a wrapper holds itself (`- generic [ref=e3]: Price: 42 EUR` → `Price: 42 EUR`, as the
 * YAML has it), or undefined: a dropped wrapper keeps its words on a `- text:` line.
 */
export function wrapperText(rest: string): string | undefined {
  const tail = strip(rest);
  return tail.startsWith(": ") && tail.length > 2 ? tail.slice(2) : undefined;
}

// indentation strings for the usual depths, made once; deeper ones are built per line
const PADS = Array.from({ length: 32 }, (_, n) => "  ".repeat(n));
function pad(depth: number): string {
  const n = Math.max(0, Math.trunc(depth));
  return PADS[n] ?? "  ".repeat(n);
}

export function roleSnapshotLines(yaml: string, interactive: boolean): RoleSnapshotLines {
  const lines: string[] = [];
  const refs = new Map<string, RoleRef>();
  const boxes = new Map<string, { x: number; y: number; width: number; height: number }>();
  const counts = new Map<string, number>();
  const bump = (key: string) => {
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    return n;
  };
  const dropped: number[] = []; // depths of dropped wrappers still open
  let next = 1;
  let start = 0;
  while (start <= yaml.length) {
    let end = yaml.indexOf("\n", start);
    if (end === -1) end = yaml.length;
    const raw = yaml.slice(start, end);
    start = end + 1;
    const body = raw.trimStart();
    if (!body.trimEnd()) continue;
    const depthIn = (raw.length - body.length) / 2;
    while (dropped.length > 0 && dropped[dropped.length - 1]! >= depthIn) dropped.pop();
    const m = ROLE_LINE.exec(body);
    const role = m?.[1];
    // `- text: …` and `- /url: …` are properties, not roles
    if (!m || !role || (role === "text" && body.startsWith("- text:"))) {
      if (!interactive) lines.push(pad(depthIn - dropped.length) + body);
      continue;
    }
    const quoted = m[2];
    if (quoted === undefined && STRUCTURAL_ROLES.has(role)) {
      // the wrapper goes; its own text (a div's, a span's) is what people read, so it stays
      const text = interactive ? undefined : wrapperText(m[3] ?? "");
      if (text !== undefined) lines.push(`${pad(depthIn - dropped.length)}- text: ${text}`);
      dropped.push(depthIn);
      continue;
    }
    const name = quoted === undefined || !quoted.includes("\\") ? quoted : quoted.replace(ESCAPE, "$1");
    const rest = m[3] ?? "";
    const label = name !== undefined ? ` ${JSON.stringify(name)}` : "";
    if (role === "text") {
      if (!interactive) lines.push(`${pad(depthIn - dropped.length)}- text${label}${strip(rest)}`);
      continue;
    }
    // positions count every element the compact tree keeps, shown or not
    const ofRole = bump(role);
    const nth = name !== undefined ? bump(`${role}\u0000${name}`) : ofRole;
    // numbered over every element kept, shown or not: navigate's interactive list and the full
    // snapshot of the same page give an element the same ref
    const ref = `e${next++}`;
    if (interactive && !INTERACTIVE_ROLES.has(role)) continue;
    const ariaRef = rest.includes("[ref=") ? REF.exec(rest)?.[1] : undefined;
    const entry: RoleRef = name !== undefined ? { role, name, nth } : { role, nth };
    if (ariaRef) entry.ariaRef = ariaRef;
    refs.set(ref, entry);
    if (rest.includes(" [box=")) {
      const box = BOX.exec(rest);
      if (box) boxes.set(ref, { x: +box[1]!, y: +box[2]!, width: +box[3]!, height: +box[4]! });
    }
    const depth = interactive ? 0 : depthIn - dropped.length;
    lines.push(`${pad(depth)}- ${role}${label} [ref=${ref}]${nth > 0 ? ` [nth=${nth}]` : ""}${strip(rest)}`);
  }
  return { lines, refs, boxes };
}
