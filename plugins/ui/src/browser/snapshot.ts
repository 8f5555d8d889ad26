import type { Locator, Page } from "playwright-core";
import { TRUNCATED_NOTICE } from "../driver/limits.js";
import {
  BOX,
  INTERACTIVE_ROLES,
  REF,
  ROLE_LINE,
  roleSnapshotLines,
  STRUCTURAL_ROLES,
  wrapperText,
} from "./role-snapshot.js";
import type { SnapshotRefs } from "./tab.js";

export { takeAriaNodes } from "./aria-nodes.js";
export { INTERACTIVE_ROLES };

/** How a role ref is found again: by role and accessible name, the nth match. */
export interface RoleRef {
  role: string;
  name?: string;
  nth: number;
  /** The element's ref in Playwright's AI snapshot: the exact element, while it lives. */
  ariaRef?: string;
}

export interface SnapshotOptions {
  refs: "role" | "aria";
  interactive: boolean;
  compact: boolean;
  depth?: number;
  selector?: string;
  frame?: string;
  maxChars: number;
  /** Keep `[box=…]` on lines (for labels); they are stripped from the text either way. */
  boxes?: boolean;
}

export interface SnapshotResult {
  text: string;
  truncated: boolean;
  refs: SnapshotRefs;
  refCount: number;
  lines: number;
  /** Bounding boxes by ref, when asked for (main-frame refs only). */
  boxes: Map<string, { x: number; y: number; width: number; height: number }>;
}

interface Line {
  depth: number;
  role?: string;
  name?: string;
  rest: string;
  raw: string;
}

function parse(yaml: string): Line[] {
  return yaml.split("\n").flatMap((raw): Line[] => {
    if (!raw.trim()) return [];
    const indent = raw.length - raw.trimStart().length;
    const body = raw.trimStart();
    const m = ROLE_LINE.exec(body);
    const role = m?.[1];
    // `- text: …` and `- /url: …` are properties, not roles
    if (!m || !role || (role === "text" && body.startsWith("- text:")))
      return [{ depth: indent / 2, rest: body, raw: body }];
    const name = m[2]?.replace(/\\(.)/g, "$1");
    return [
      { depth: indent / 2, role, ...(name !== undefined ? { name } : {}), rest: m[3] ?? "", raw: body },
    ];
  });
}

/** Drops unnamed structural wrappers (compact; their own text kept) or everything but interactive elements, re-indenting children. */
function filter(lines: Line[], options: Pick<SnapshotOptions, "interactive" | "compact">): Line[] {
  if (options.interactive) {
    return lines.filter((l) => l.role && INTERACTIVE_ROLES.has(l.role)).map((l) => ({ ...l, depth: 0 }));
  }
  if (!options.compact) return lines;
  const out: Line[] = [];
  const dropped: number[] = []; // depths of dropped ancestors still open
  for (const line of lines) {
    while (dropped.length > 0 && dropped[dropped.length - 1]! >= line.depth) dropped.pop();
    if (line.role && STRUCTURAL_ROLES.has(line.role) && line.name === undefined) {
      // the wrapper goes, its own text stays
      const text = wrapperText(line.rest);
      if (text !== undefined) {
        const body = `- text: ${text}`;
        out.push({ depth: line.depth - dropped.length, rest: body, raw: body });
      }
      dropped.push(line.depth);
      continue;
    }
    out.push({ ...line, depth: line.depth - dropped.length });
  }
  return out;
}

function render(line: Line, extra = ""): string {
  const pad = "  ".repeat(Math.max(0, line.depth));
  if (!line.role) return `${pad}${line.raw}`;
  const name = line.name !== undefined ? ` ${JSON.stringify(line.name)}` : "";
  return `${pad}- ${line.role}${name}${extra}${line.rest}`;
}

function root(page: Page, options: Pick<SnapshotOptions, "selector" | "frame">): Locator | Page {
  const scope = options.frame ? page.frameLocator(options.frame) : undefined;
  if (options.selector) return scope ? scope.locator(options.selector) : page.locator(options.selector);
  return scope ? scope.locator(":root") : page;
}

/**
 * The page as text a model can act on. `refs: "aria"` is Playwright's own AI snapshot
 * (`ariaSnapshot({ mode: "ai" })`, refs resolved by `getByRef`); `refs: "role"` numbers each element
 * of the plain aria snapshot `e1, e2…` and remembers its role, name and position among equals
 * (`[nth=n]`), resolved later with `getByRole`. Either way only the latest snapshot's refs resolve.
 */
export async function takeSnapshot(page: Page, options: SnapshotOptions): Promise<SnapshotResult> {
  const target = root(page, options);
  const depth = options.depth !== undefined ? { depth: options.depth } : {};
  let boxes = new Map<string, { x: number; y: number; width: number; height: number }>();
  let out: string[];
  let refs: SnapshotRefs;
  if (options.refs === "aria") {
    const yaml = await target.ariaSnapshot({
      mode: "ai",
      ...depth,
      ...(options.boxes ? { boxes: true } : {}),
    });
    const seen = new Set<string>();
    out = filter(parse(yaml), options).map((line) => {
      const ref = REF.exec(line.rest)?.[1];
      if (ref) seen.add(ref);
      const box = BOX.exec(line.rest);
      if (box && ref && !ref.startsWith("f"))
        boxes.set(ref, { x: +box[1]!, y: +box[2]!, width: +box[3]!, height: +box[4]! });
      return render({ ...line, rest: line.rest.replace(BOX, "") });
    });
    refs = { mode: "aria", refs: seen, ...(options.frame ? { frame: options.frame } : {}) };
  } else {
    // Playwright's AI walk, not its plain one: the plain walk drops a `visibility: hidden`
    // subtree whole, including children made visible again (menus, popovers), which people see.
    const yaml = await target.ariaSnapshot({
      mode: "ai",
      ...depth,
      ...(options.boxes ? { boxes: true } : {}),
    });
    const role = roleSnapshotLines(yaml, options.interactive);
    out = role.lines;
    boxes = role.boxes;
    refs = { mode: "role", refs: role.refs, ...(options.frame ? { frame: options.frame } : {}) };
  }
  let text = out.join("\n");
  const truncated = text.length > options.maxChars;
  if (truncated) text = `${text.slice(0, options.maxChars)}${TRUNCATED_NOTICE}`;
  const refCount = refs.refs.size;
  return { text, truncated, refs, refCount, lines: out.length, boxes };
}
