import { ToolInputError } from "@clawtools/core";

/** The act kinds every browser driver runs (OpenClaw's set). */
export const ACT_KINDS = [
  "click",
  "type",
  "press",
  "hover",
  "drag",
  "select",
  "fill",
  "resize",
  "wait",
  "evaluate",
  "close",
] as const;
export type ActKind = (typeof ACT_KINDS)[number];

export interface FillField {
  ref?: string;
  selector?: string;
  type?: string;
  value?: unknown;
}

/** An act request, as `request:{kind,…}` or flattened at the top level (OpenClaw's legacy form). */
export interface ActRequest {
  kind?: string;
  targetId?: string;
  ref?: string;
  selector?: string;
  doubleClick?: boolean;
  button?: string;
  modifiers?: string[];
  text?: string;
  submit?: boolean;
  slowly?: boolean;
  key?: string;
  delayMs?: number;
  startRef?: string;
  endRef?: string;
  startSelector?: string;
  endSelector?: string;
  values?: string[];
  fields?: FillField[];
  width?: number;
  height?: number;
  timeMs?: number;
  url?: string;
  loadState?: string;
  textGone?: string;
  timeoutMs?: number;
  fn?: string;
}

/** What a driver answers for a ref its tab's latest snapshot did not give (or whose element is gone). */
export const staleRef = (ref: string) =>
  `Unknown or stale ref "${ref.slice(0, 40)}": refs belong to the latest snapshot of this tab. Take a new snapshot (action=snapshot) and use a ref from it.`;

export const EVALUATE_DISABLED =
  "evaluate is disabled (browser.evaluateEnabled=false in the ui configuration).";

const fail = (message: string): never => {
  throw new ToolInputError(message);
};

/**
 * OpenClaw's act validation (`routes/agent.act.normalize.ts`), word for word. The tool runs it
 * before any driver sees the request, so every driver gets a well-formed one.
 */
export function validateAct(req: ActRequest): ActKind {
  if (!req.kind) fail("kind is required");
  const kind = req.kind as ActKind;
  if (!ACT_KINDS.includes(kind)) fail("Unsupported browser act kind");
  const target = req.ref || req.selector;
  switch (kind) {
    case "click":
      if (!target) fail("click requires ref or selector");
      if (req.button && !["left", "right", "middle"].includes(req.button))
        fail("click button must be left|right|middle");
      break;
    case "type":
      if (!target) fail("type requires ref or selector");
      if (typeof req.text !== "string") fail("type requires text");
      break;
    case "press":
      if (!req.key) fail("press requires key");
      break;
    case "hover":
      if (!target) fail(`${kind} requires ref or selector`);
      break;
    case "drag":
      if (!req.startRef && !req.startSelector) fail("drag requires startRef or startSelector");
      if (!req.endRef && !req.endSelector) fail("drag requires endRef or endSelector");
      break;
    case "select":
      if (!target || !req.values?.length) fail("select requires ref/selector and values");
      break;
    case "fill":
      if (!req.fields?.length) fail("fill requires fields");
      for (const field of req.fields!)
        if (!field.ref && !field.selector) fail("fill field requires ref or selector");
      break;
    case "resize":
      if (!(Number(req.width) > 0 && Number(req.height) > 0))
        fail("resize requires positive width and height");
      break;
    case "evaluate":
      if (!req.fn) fail("evaluate requires fn");
      break;
  }
  return kind;
}

/** Whether the request runs page JavaScript (refused up front when evaluate is off). */
export const runsScript = (req: ActRequest) =>
  req.kind === "evaluate" || (req.kind === "wait" && Boolean(req.fn));
