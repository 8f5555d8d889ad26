import type { JsonSchema } from "../tool.js";

// JSON Schema 2020-12 composition (allOf / anyOf / oneOf, if / then / else, $anchor) turned into
// what model providers take: they refuse composition at the root of a tool's parameters, and
// Gemini and OpenAI's strict mode refuse allOf and conditionals anywhere. What the rewrite cannot
// say as keywords it says in the description; the call is still validated against the tool's own
// schema, so a model that breaks such a rule gets an error naming it.

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A composition a provider cannot take and that cannot be rewritten: the message names where and why. */
export class SchemaCompositionError extends Error {
  override name = "SchemaCompositionError";
  constructor(
    readonly schemaPath: string,
    message: string,
  ) {
    super(`${schemaPath || "(root)"}: ${message}`);
  }
}

/** Keywords only MCP hosts read: never sent to a model provider. */
const HOST_ONLY_KEYWORDS = new Set(["x-mcp-header", "$anchor", "$comment", "$dynamicAnchor"]);
/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS = new Set(["enum", "const", "required", "default", "examples"]);
/** Keywords a part of an allOf may carry that merge by keeping the first. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$schema", "$id"]);

const typeList = (type: unknown): string[] | undefined =>
  typeof type === "string" ? [type] : Array.isArray(type) ? (type as string[]) : undefined;

/** The named types `a` and `b` both allow (integer counts as a number). */
function commonTypes(a: string[], b: string[]): string[] {
  const allows = (list: string[], t: string) =>
    list.includes(t) || (t === "integer" && list.includes("number"));
  return [...new Set([...a.filter((t) => allows(b, t)), ...b.filter((t) => allows(a, t))])];
}

interface Lowering {
  /** `#name` anchors, by the path of the definition they name. */
  anchors: Map<string, string>;
  /** Rules said in words, for the root's description. */
  notes: string[];
  defs: JsonSchema | undefined;
}

/** Merges `part` (one allOf entry) into `target` in place. */
function mergeInto(target: JsonSchema, part: JsonSchema, path: string, state: Lowering): void {
  for (const [key, value] of Object.entries(part)) {
    const mine = target[key];
    if (mine === undefined) {
      target[key] = value;
    } else if (key === "type") {
      const both = commonTypes(typeList(mine) ?? [], typeList(value) ?? []);
      if (both.length === 0)
        throw new SchemaCompositionError(
          path,
          `allOf joins a ${JSON.stringify(mine)} and a ${JSON.stringify(value)}: no value is both`,
        );
      target.type = both.length === 1 ? both[0] : both;
    } else if (key === "properties" && isObject(mine) && isObject(value)) {
      const merged: JsonSchema = { ...mine };
      for (const [name, schema] of Object.entries(value)) {
        const had = merged[name];
        merged[name] =
          had === undefined || same(had, schema)
            ? schema
            : lowerNode({ allOf: [had, schema] }, `${path}/properties/${name}`, state);
      }
      target.properties = merged;
    } else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) {
      target.required = [...new Set([...mine, ...value])];
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) {
      const both = mine.filter((v) => value.some((w) => same(v, w)));
      if (both.length === 0)
        throw new SchemaCompositionError(path, "allOf joins enums with no value in common");
      target.enum = both;
    } else if ((key === "anyOf" || key === "oneOf") && Array.isArray(mine) && Array.isArray(value)) {
      throw new SchemaCompositionError(
        path,
        `allOf joins two ${key} unions: providers cannot take that; write the alternatives as one ${key}`,
      );
    } else if (!ANNOTATIONS.has(key) && !same(mine, value)) {
      throw new SchemaCompositionError(
        path,
        `allOf parts disagree on ${key} (${JSON.stringify(mine)} and ${JSON.stringify(value)}); state it once`,
      );
    }
  }
}

/** A part given as a local `$ref` (`#/$defs/x`, `#anchor`): the definition, to merge. */
function resolvePart(part: unknown, state: Lowering): unknown {
  if (!isObject(part) || typeof part.$ref !== "string" || Object.keys(part).length !== 1) return part;
  const ref = state.anchors.get(part.$ref) ?? part.$ref;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  return match && isObject(state.defs) ? (state.defs[match[2]!] ?? part) : part;
}

/** Words for `{ required: [...] }`-only alternatives: "phone, or email". */
function alternativesInWords(variants: unknown[]): string | undefined {
  const lists = variants.map((v) =>
    isObject(v) && Object.keys(v).every((k) => k === "required") && Array.isArray(v.required)
      ? (v.required as string[])
      : undefined,
  );
  if (lists.some((l) => l === undefined || l.length === 0)) return undefined;
  return (lists as string[][]).map((l) => l.join(" and ")).join(", or ");
}

/** Words for an if/then/else of required-only branches under a const condition, else a generic rule. */
function conditionInWords(node: JsonSchema): string {
  const cond = isObject(node.if) ? node.if : {};
  const props = isObject(cond.properties) ? Object.entries(cond.properties) : [];
  const branch = (b: unknown) =>
    isObject(b) && Array.isArray(b.required) && Object.keys(b).length === 1
      ? (b.required as string[])
      : undefined;
  const [then, otherwise] = [branch(node.then), branch(node.else)];
  if (props.length === 1 && isObject(props[0]![1]) && "const" in props[0]![1] && then) {
    const [name, rule] = props[0] as [string, JsonSchema];
    const when = `If ${name} is ${JSON.stringify(rule.const)}, ${then.join(" and ")} ${then.length > 1 ? "are" : "is"} required`;
    return otherwise
      ? `${when}; otherwise ${otherwise.join(" and ")} ${otherwise.length > 1 ? "are" : "is"} required.`
      : `${when}.`;
  }
  return "Conditional rules (if/then/else) apply; a call that breaks one is refused with the reason.";
}

/** One node and its subschemas, composition merged away; `root` also folds its unions and conditions. */
function lowerNode(input: JsonSchema, path: string, state: Lowering, root = false): JsonSchema {
  let node: JsonSchema = {};
  for (const [key, value] of Object.entries(input)) {
    if (HOST_ONLY_KEYWORDS.has(key)) continue;
    if (key === "$ref" && typeof value === "string") node.$ref = state.anchors.get(value) ?? value;
    else if (DATA_KEYWORDS.has(key) || typeof value !== "object" || value === null) node[key] = value;
    else if ((key === "properties" || key === "$defs" || key === "definitions") && isObject(value))
      node[key] = Object.fromEntries(
        Object.entries(value).map(([n, s]) => [
          n,
          isObject(s) ? lowerNode(s, `${path}/${key}/${n}`, state) : s,
        ]),
      );
    else if (Array.isArray(value))
      node[key] = value.map((s, i) => (isObject(s) ? lowerNode(s, `${path}/${key}/${i}`, state) : s));
    else node[key] = lowerNode(value as JsonSchema, `${path}/${key}`, state);
  }
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf as unknown[];
    delete node.allOf;
    if (parts.length === 0) throw new SchemaCompositionError(path, "allOf has no parts");
    for (const [i, part] of parts.entries()) {
      const resolved = resolvePart(part, state);
      if (!isObject(resolved))
        throw new SchemaCompositionError(`${path}/allOf/${i}`, "an allOf part must be a schema");
      mergeInto(node, resolved, path, state);
    }
  }
  if (!root) return node;
  if ("if" in node || "then" in node || "else" in node) {
    state.notes.push(conditionInWords(node));
    delete node.if;
    delete node.then;
    delete node.else;
  }
  if ("not" in node) {
    state.notes.push(
      "Some argument combinations are excluded (not); a call that uses one is refused with the reason.",
    );
    delete node.not;
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const variants = node[key];
    if (!Array.isArray(variants)) continue;
    delete node[key];
    if (variants.length === 0)
      throw new SchemaCompositionError(path, `${key} has no variants: nothing can match`);
    node = foldRootUnion(node, key, variants, path, state);
  }
  return node;
}

/** A root union folded into the root object: its properties joined, the alternatives in words. */
function foldRootUnion(
  node: JsonSchema,
  key: "anyOf" | "oneOf",
  variants: unknown[],
  path: string,
  state: Lowering,
): JsonSchema {
  const properties: JsonSchema = isObject(node.properties) ? { ...node.properties } : {};
  for (const [i, variant] of variants.entries()) {
    const at = `${path}/${key}/${i}`;
    if (!isObject(variant)) throw new SchemaCompositionError(at, "a variant must be a schema");
    const types = typeList(variant.type);
    if (types && !types.includes("object"))
      throw new SchemaCompositionError(
        at,
        `this ${key} variant is a ${types.join(" or ")}, but a tool's arguments are always an object: make every variant an object`,
      );
    for (const [name, schema] of Object.entries(isObject(variant.properties) ? variant.properties : {})) {
      const had = properties[name];
      if (had === undefined || same(had, schema)) properties[name] = schema;
      else properties[name] = { anyOf: [had, schema] };
    }
  }
  const lists = variants.map((v) =>
    isObject(v) && Array.isArray(v.required) ? (v.required as string[]) : [],
  );
  const common = lists.reduce((a, b) => a.filter((n) => b.includes(n)));
  const required = [
    ...new Set([...(Array.isArray(node.required) ? (node.required as string[]) : []), ...common]),
  ];
  const words = alternativesInWords(variants);
  state.notes.push(
    words
      ? `Give ${key === "oneOf" ? "exactly" : "at least"} one of: ${words}.`
      : `The arguments must match ${key === "oneOf" ? "exactly" : "at least"} one of ${variants.length} alternative shapes.`,
  );
  const out: JsonSchema = { ...node, type: "object", properties };
  if (required.length > 0) out.required = required;
  else delete out.required;
  return out;
}

/** The `$anchor`s under `$defs` / `definitions`, as the paths providers can follow. */
function anchorsOf(schema: JsonSchema): Map<string, string> {
  const anchors = new Map<string, string>();
  for (const group of ["$defs", "definitions"] as const) {
    const defs = schema[group];
    if (!isObject(defs)) continue;
    for (const [name, def] of Object.entries(defs))
      if (isObject(def) && typeof def.$anchor === "string")
        anchors.set(`#${def.$anchor}`, `#/${group}/${name}`);
  }
  return anchors;
}

/**
 * `schema` (an object-rooted tool schema) without allOf anywhere, and without unions, conditions
 * or `not` at its root, as every provider takes it; the rules that moved out are appended to the
 * root's description. Throws `SchemaCompositionError` for what cannot be rewritten (a root
 * variant that is not an object, an allOf whose parts contradict each other).
 */
export function lowerComposition(schema: JsonSchema): JsonSchema {
  const state: Lowering = { anchors: anchorsOf(schema), notes: [], defs: undefined };
  const defs = schema.$defs ?? schema.definitions;
  state.defs = isObject(defs) ? defs : undefined;
  const out = lowerNode(schema, "", state, true);
  if (state.notes.length > 0) {
    const note = state.notes.join(" ");
    out.description =
      typeof out.description === "string" && out.description ? `${out.description} ${note}` : note;
  }
  return out;
}

/** Whether `schema` uses anything `lowerComposition` rewrites. */
export function hasComposition(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasComposition);
  if (!isObject(schema)) return false;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "allOf" || key === "if" || HOST_ONLY_KEYWORDS.has(key)) return true;
    if (!DATA_KEYWORDS.has(key) && typeof value === "object" && value !== null && hasComposition(value))
      return true;
  }
  return false;
}
