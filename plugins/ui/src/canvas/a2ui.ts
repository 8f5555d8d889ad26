import { ToolInputError } from "@clawtools/core";
import {
  type ComponentType,
  isObject,
  type Props,
  renderSurface,
  SUPPORTED_COMPONENTS,
  type Surface,
} from "./a2ui-render.js";

/**
 * A2UI v0.8 (JSONL, one message per line: surfaceUpdate, dataModelUpdate, beginRendering,
 * deleteSurface), rendered to HTML for the canvas page. The supported components are listed in
 * SUPPORTED_COMPONENTS; anything else is refused with a clear error, never accepted and ignored.
 */
export { CANVAS_PAGE_STYLE, SUPPORTED_COMPONENTS } from "./a2ui-render.js";

export const MAX_A2UI_BYTES = 1_000_000;

const fail = (line: number, message: string): never => {
  throw new ToolInputError(`A2UI line ${line}: ${message}`);
};

/** Parses JSONL into messages, refusing malformed lines and unknown message kinds up front. */
export function parseA2uiJsonl(jsonl: string): Props[] {
  if (Buffer.byteLength(jsonl) > MAX_A2UI_BYTES)
    throw new ToolInputError(`A2UI input over ${MAX_A2UI_BYTES} bytes`);
  const messages: Props[] = [];
  for (const [i, raw] of jsonl.split("\n").entries()) {
    const text = raw.trim();
    if (!text) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      fail(i + 1, "not valid JSON");
    }
    if (!isObject(value)) fail(i + 1, "a message must be a JSON object");
    const keys = Object.keys(value as Props);
    const known = ["surfaceUpdate", "dataModelUpdate", "beginRendering", "deleteSurface"];
    if (keys.length !== 1 || !known.includes(keys[0]!))
      fail(
        i + 1,
        `a message has exactly one of ${known.join(", ")} (got ${keys.join(", ").slice(0, 80) || "none"})`,
      );
    messages.push({ ...(value as Props), __line: i + 1 });
  }
  if (messages.length === 0) throw new ToolInputError("jsonl has no A2UI messages");
  return messages;
}

/** The canvas's A2UI state: surfaces, their components and data, rendered to HTML. */
export class A2uiState {
  private readonly surfaces = new Map<string, Surface>();

  reset(): void {
    this.surfaces.clear();
  }

  /** Applies messages atomically: a refused message leaves the state as it was. */
  apply(messages: Props[]): void {
    const next = new Map(
      [...this.surfaces].map(([id, s]) => [
        id,
        { ...s, components: new Map(s.components), data: new Map(s.data) },
      ]),
    );
    const surface = (id: unknown, line: number): Surface => {
      if (typeof id !== "string" || !id) return fail(line, "surfaceId required");
      let s = next.get(id);
      if (!s) {
        s = { components: new Map(), data: new Map() };
        next.set(id, s);
      }
      return s;
    };
    for (const message of messages) {
      const line = message.__line as number;
      if (isObject(message.surfaceUpdate)) {
        const body = message.surfaceUpdate;
        const s = surface(body.surfaceId, line);
        if (!Array.isArray(body.components)) fail(line, "surfaceUpdate.components must be an array");
        for (const entry of body.components as unknown[]) {
          if (!isObject(entry) || typeof entry.id !== "string" || !isObject(entry.component))
            fail(line, "each component needs an id and a component");
          const e = entry as { id: string; component: Props };
          const types = Object.keys(e.component);
          const type = types[0] as ComponentType;
          if (types.length !== 1 || !SUPPORTED_COMPONENTS.includes(type))
            fail(
              line,
              `component "${e.id.slice(0, 40)}" uses ${types.join(", ").slice(0, 60) || "nothing"}; this canvas renders ${SUPPORTED_COMPONENTS.join(", ")}`,
            );
          const props = e.component[type];
          if (!isObject(props))
            fail(line, `component "${e.id.slice(0, 40)}": ${type} properties must be an object`);
          s.components.set(e.id, { id: e.id, type, props: props as Props });
        }
      } else if (isObject(message.dataModelUpdate)) {
        const body = message.dataModelUpdate;
        const s = surface(body.surfaceId, line);
        const prefix = typeof body.path === "string" && body.path !== "/" ? body.path.replace(/\/$/, "") : "";
        if (!Array.isArray(body.contents)) fail(line, "dataModelUpdate.contents must be an array");
        for (const item of body.contents as unknown[]) {
          if (!isObject(item) || typeof item.key !== "string") fail(line, "each data entry needs a key");
          const entry = item as Props & { key: string };
          const value = entry.valueString ?? entry.valueNumber ?? entry.valueBoolean;
          if (value === undefined)
            fail(
              line,
              `data entry "${entry.key.slice(0, 40)}": valueString, valueNumber or valueBoolean required`,
            );
          s.data.set(`${prefix}/${entry.key}`, value);
        }
      } else if (isObject(message.beginRendering)) {
        const body = message.beginRendering;
        const s = surface(body.surfaceId, line);
        if (typeof body.root !== "string") fail(line, "beginRendering.root required");
        s.root = body.root as string;
      } else if (isObject(message.deleteSurface)) {
        next.delete(String(message.deleteSurface.surfaceId));
      }
    }
    // Every rendered surface must resolve completely before anything is shown.
    for (const [id, s] of next) if (s.root) renderSurface(id, s);
    this.surfaces.clear();
    for (const [id, s] of next) this.surfaces.set(id, s);
  }

  html(): string {
    const parts = [...this.surfaces].filter(([, s]) => s.root).map(([id, s]) => renderSurface(id, s));
    return parts.join("\n");
  }
}
