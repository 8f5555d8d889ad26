import { ToolInputError } from "@clawtools/core";

// A2UI's components and their rendering to HTML for the canvas page (parsing and state: a2ui.ts).

export const SUPPORTED_COMPONENTS = [
  "Text",
  "Image",
  "Row",
  "Column",
  "List",
  "Card",
  "Button",
  "Divider",
  "TextField",
  "CheckBox",
] as const;
export type ComponentType = (typeof SUPPORTED_COMPONENTS)[number];

export type Props = Record<string, unknown>;
export interface Component {
  id: string;
  type: ComponentType;
  props: Props;
}
export interface Surface {
  components: Map<string, Component>;
  data: Map<string, unknown>;
  root?: string;
}

export const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function value(bound: unknown, s: Surface): string {
  if (typeof bound === "string") return bound;
  if (!isObject(bound)) return "";
  if ("literalString" in bound) return String(bound.literalString);
  if ("literalNumber" in bound) return String(bound.literalNumber);
  if ("literalBoolean" in bound) return String(bound.literalBoolean);
  if (typeof bound.path === "string") {
    const path = bound.path.startsWith("/") ? bound.path : `/${bound.path}`;
    const found = s.data.get(path);
    return found === undefined ? "" : String(found);
  }
  return "";
}

function children(props: Props, id: string): string[] {
  const c = props.children;
  if (c === undefined) return [];
  if (isObject(c) && Array.isArray(c.explicitList)) return c.explicitList.map(String);
  throw new ToolInputError(
    `A2UI component "${id.slice(0, 40)}": only children.explicitList is supported (templates are not)`,
  );
}

/** One surface as HTML, from its root; an undefined, repeated or cyclic component is refused. */
export function renderSurface(id: string, s: Surface): string {
  const seen = new Set<string>();
  const render = (cid: string): string => {
    const c = s.components.get(cid);
    if (!c)
      throw new ToolInputError(
        `A2UI surface "${id.slice(0, 40)}": component "${cid.slice(0, 40)}" is not defined`,
      );
    if (seen.has(cid))
      throw new ToolInputError(
        `A2UI surface "${id.slice(0, 40)}": component "${cid.slice(0, 40)}" is used twice or in a cycle`,
      );
    seen.add(cid);
    const p = c.props;
    const attr = `data-a2ui-id="${escapeHtml(cid)}"`;
    switch (c.type) {
      case "Text": {
        const hint = typeof p.usageHint === "string" && /^h[1-5]$/.test(p.usageHint) ? p.usageHint : "p";
        return `<${hint} ${attr}>${escapeHtml(value(p.text, s))}</${hint}>`;
      }
      case "Image":
        return `<img ${attr} alt="" src="${escapeHtml(value(p.url, s))}">`;
      case "Row":
        return `<div class="row" ${attr}>${children(p, cid).map(render).join("")}</div>`;
      case "Column":
      case "List":
        return `<div class="col" ${attr}>${children(p, cid).map(render).join("")}</div>`;
      case "Card":
        return `<div class="card" ${attr}>${typeof p.child === "string" ? render(p.child) : children(p, cid).map(render).join("")}</div>`;
      case "Button":
        return `<button ${attr}>${typeof p.child === "string" ? render(p.child) : escapeHtml(value(p.label, s))}</button>`;
      case "Divider":
        return `<hr ${attr}>`;
      case "TextField":
        return `<label ${attr}>${escapeHtml(value(p.label, s))} <input value="${escapeHtml(value(p.text, s))}"></label>`;
      case "CheckBox":
        return `<label ${attr}><input type="checkbox"${value(p.value, s) === "true" ? " checked" : ""}> ${escapeHtml(value(p.label, s))}</label>`;
    }
  };
  return `<section class="surface" data-surface="${escapeHtml(id)}">${render(s.root!)}</section>`;
}

export const CANVAS_PAGE_STYLE =
  "body{font:16px/1.4 'Liberation Sans',Arial,sans-serif;margin:16px;color:#111;background:#fff}" +
  ".row{display:flex;flex-direction:row;gap:8px;align-items:center}.col{display:flex;flex-direction:column;gap:8px}" +
  ".card{border:1px solid #ccc;border-radius:8px;padding:12px;box-shadow:0 1px 3px #0002}img{max-width:100%}";
