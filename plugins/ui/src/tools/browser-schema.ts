import { optionalStringEnum, stringEnum, Type } from "@clawtools/core";
import { ACT_KINDS } from "../driver/act-request.js";

export const BROWSER_ACTIONS = [
  "status",
  "start",
  "stop",
  "profiles",
  "tabs",
  "open",
  "focus",
  "close",
  "snapshot",
  "screenshot",
  "navigate",
  "back",
  "forward",
  "console",
  "pdf",
  "upload",
  "dialog",
  "act",
] as const;

const actFields = {
  targetId: Type.Optional(Type.String()),
  ref: Type.Optional(Type.String({ description: "Element ref from the latest snapshot (e12)." })),
  selector: Type.Optional(Type.String({ description: "CSS selector, when there is no ref." })),
  doubleClick: Type.Optional(Type.Boolean()),
  button: optionalStringEnum(["left", "right", "middle"] as const),
  modifiers: Type.Optional(Type.Array(Type.String())),
  text: Type.Optional(Type.String()),
  submit: Type.Optional(Type.Boolean({ description: "Press Enter after typing." })),
  slowly: Type.Optional(Type.Boolean({ description: "Type key by key." })),
  key: Type.Optional(Type.String({ description: "Key to press (Enter, Control+A…)." })),
  delayMs: Type.Optional(Type.Number()),
  startRef: Type.Optional(Type.String()),
  endRef: Type.Optional(Type.String()),
  startSelector: Type.Optional(Type.String()),
  endSelector: Type.Optional(Type.String()),
  values: Type.Optional(Type.Array(Type.String())),
  fields: Type.Optional(
    Type.Array(
      Type.Object(
        {
          ref: Type.Optional(Type.String()),
          selector: Type.Optional(Type.String()),
          type: Type.Optional(Type.String()),
          value: Type.Optional(Type.Unknown()),
        },
        { additionalProperties: false },
      ),
    ),
  ),
  width: Type.Optional(Type.Number()),
  height: Type.Optional(Type.Number()),
  timeMs: Type.Optional(Type.Number()),
  url: Type.Optional(Type.String()),
  loadState: optionalStringEnum(["load", "domcontentloaded", "networkidle"] as const),
  textGone: Type.Optional(Type.String()),
  timeoutMs: Type.Optional(Type.Number()),
  fn: Type.Optional(Type.String({ description: "JavaScript function or expression (evaluate, wait)." })),
};

/** One flat object with an `action` discriminator, as OpenClaw's (no unions in tool schemas). */
export const browserSchema = Type.Object(
  {
    action: stringEnum(BROWSER_ACTIONS, { description: "What to do." }),
    target: optionalStringEnum(["sandbox", "host", "node"] as const, {
      description: "Where the browser runs (this machine: host).",
    }),
    node: Type.Optional(Type.String()),
    profile: Type.Optional(
      Type.String({
        description: 'Browser profile: "openclaw" (managed, default) or "user" (attach over CDP).',
      }),
    ),
    targetUrl: Type.Optional(Type.String({ description: "URL for open / navigate (alias: url)." })),
    limit: Type.Optional(Type.Number({ description: "aria format: nodes at most (default 500, max 2000)." })),
    maxChars: Type.Optional(Type.Number({ description: "Snapshot characters at most (default 80,000)." })),
    mode: optionalStringEnum(["efficient"] as const, {
      description: "efficient: interactive, compact, depth 6, 10,000 characters.",
    }),
    snapshotFormat: optionalStringEnum(["aria", "ai"] as const),
    refs: optionalStringEnum(["role", "aria"] as const, {
      description: "role: refs resolved by role and name (default); aria: Playwright's aria refs.",
    }),
    interactive: Type.Optional(Type.Boolean()),
    compact: Type.Optional(Type.Boolean()),
    depth: Type.Optional(Type.Number()),
    frame: Type.Optional(Type.String({ description: "Selector of an iframe to snapshot inside." })),
    labels: Type.Optional(Type.Boolean({ description: "Also return a screenshot with ref labels." })),
    fullPage: Type.Optional(Type.Boolean()),
    element: Type.Optional(Type.String({ description: "Selector of the element to screenshot." })),
    type: optionalStringEnum(["png", "jpeg"] as const),
    level: Type.Optional(Type.String({ description: "console: only messages of this level." })),
    paths: Type.Optional(Type.Array(Type.String(), { description: "upload: workspace files." })),
    inputRef: Type.Optional(Type.String({ description: "upload: ref of the file input." })),
    accept: Type.Optional(Type.Boolean()),
    promptText: Type.Optional(Type.String()),
    request: Type.Optional(
      Type.Object(
        { kind: stringEnum(ACT_KINDS), ...actFields },
        { additionalProperties: false, description: "act: the action to perform." },
      ),
    ),
    kind: optionalStringEnum(ACT_KINDS, { description: "act (legacy flattened form): the action kind." }),
    ...actFields,
  },
  { additionalProperties: false },
);
