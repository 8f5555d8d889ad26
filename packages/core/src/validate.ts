import { createRequire } from "node:module";
import type { Compile as CompileFn } from "typebox/compile";
import { ToolInputError } from "./errors.js";
import { emptyObjectPasses, quickCheckFor } from "./schema-check.js";
import type { JsonSchema } from "./tool.js";

type Validator = { Check(value: unknown): boolean; Errors(value: unknown): Iterable<ValidationIssue> };
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

// One compiled validator per schema object; null when the schema cannot be compiled.
const compiled = new WeakMap<object, Validator | null>();

// The schema compiler is loaded on the first validation, not at import: it costs more to load
// than the rest of core, and listing or converting tools never needs it.
let compiler: typeof CompileFn | undefined;
function loadCompiler(): typeof CompileFn {
  compiler ??= (createRequire(import.meta.url)("typebox/compile") as { Compile: typeof CompileFn }).Compile;
  return compiler;
}

/** Whether the schema compiler has been loaded in this process (tests of the quick path). */
export function isSchemaCompilerLoaded(): boolean {
  return compiler !== undefined;
}

function validatorFor(schema: object): Validator | null {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    try {
      validator = loadCompiler()(schema as never) as unknown as Validator;
    } catch {
      // A schema the compiler cannot read (exotic $ref, vendor keywords) is not a reason to
      // refuse every call: coercion and defaults still apply, the tool checks the rest.
      validator = null;
    }
    compiled.set(schema, validator);
  }
  return validator;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Deep copy of JSON data (tool arguments); several times faster than structuredClone here. */
function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // an own `__proto__` key (JSON.parse makes one) stays data, never the prototype
      if (key === "__proto__")
        Object.defineProperty(out, key, {
          value: cloneJson(value[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[key] = cloneJson(value[key]);
    }
    return out;
  }
  return value;
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  if (isPlainObject(schema.properties)) return ["object"];
  return [];
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    case "null":
      return value === null;
    default:
      return false;
  }
}

/** Converts one value towards one JSON type the way the spec's param readers do; unchanged if it cannot. */
function convertScalar(value: unknown, type: string): unknown {
  if ((type === "number" || type === "integer") && typeof value === "string" && NUMERIC.test(value)) {
    const n = Number(value);
    return type === "integer" && !Number.isInteger(n) ? value : n;
  }
  if (type === "string" && (typeof value === "number" || typeof value === "boolean")) return String(value);
  if (type === "boolean" && typeof value === "string") {
    if (value === "true") return true;
    if (value === "false") return false;
  }
  return value;
}

/**
 * Applies defaults and coercions by walking the schema: numeric strings for numbers, numbers
 * for strings, "true"/"false" for booleans, a single value where an array is wanted.
 */
export function coerceToSchema(schema: unknown, value: unknown): unknown {
  if (!isPlainObject(schema)) return value;
  const variants = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(variants) && value !== undefined) {
    if (variants.some((v) => isPlainObject(v) && typesOf(v).some((t) => matchesType(value, t)))) {
      const match = variants.find((v) => isPlainObject(v) && typesOf(v).some((t) => matchesType(value, t)));
      return coerceToSchema(match, value);
    }
    for (const variant of variants) {
      const converted = coerceToSchema(variant, value);
      if (converted !== value) return converted;
    }
    return value;
  }
  const types = typesOf(schema);
  if (value === undefined || types.length === 0) return value;
  if (!types.some((t) => matchesType(value, t))) {
    if (types.includes("array") && value !== null) return [coerceToSchema(schema.items, value)];
    for (const type of types) {
      const converted = convertScalar(value, type);
      if (converted !== value) return converted;
    }
    return value;
  }
  if (Array.isArray(value) && isPlainObject(schema.items)) {
    return value.map((item) => coerceToSchema(schema.items, item));
  }
  if (isPlainObject(value)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const out: Record<string, unknown> = { ...value };
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [key, propSchema] of Object.entries(properties)) {
      // OpenAI strict mode sends null for an optional property it leaves out.
      if (
        out[key] === null &&
        !required.has(key) &&
        isPlainObject(propSchema) &&
        !typesOf(propSchema).includes("null")
      ) {
        delete out[key];
      }
      if (out[key] === undefined) {
        if (isPlainObject(propSchema) && "default" in propSchema) out[key] = cloneJson(propSchema.default);
      } else {
        out[key] = coerceToSchema(propSchema, out[key]);
      }
    }
    if (isPlainObject(schema.additionalProperties)) {
      for (const key of Object.keys(out)) {
        if (!(key in properties)) out[key] = coerceToSchema(schema.additionalProperties, out[key]);
      }
    }
    return out;
  }
  return value;
}

function issuePath(issue: ValidationIssue): string {
  const base = issue.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
  const missing = issue.params.requiredProperties ?? issue.params.missingProperty;
  if (issue.keyword === "required" && missing !== undefined) {
    const names = (Array.isArray(missing) ? missing : [missing]).map(String);
    return names.map((name) => (base ? `${base}.${name}` : name)).join(", ");
  }
  return base || "root";
}

function issueMessage(issue: ValidationIssue): string {
  if (issue.keyword === "additionalProperties" && Array.isArray(issue.params.additionalProperties)) {
    return `must not have additional properties (${issue.params.additionalProperties.join(", ")})`;
  }
  if (issue.keyword === "required") return "is required";
  return issue.message;
}

/**
 * Every way `value` fails `schema`, one line each (`  - path: what was expected`); empty when
 * it matches. Shared by tool arguments and section configuration.
 */
export function schemaIssues(schema: object, value: unknown): string[] {
  if (!isPlainObject(value)) return [`  - root: must be an object`];
  // an empty object (a section without configuration) is settled by the root keywords alone
  if (Object.keys(value).length === 0 && emptyObjectPasses(schema)) return [];
  // Common schemas are checked without the compiler; a miss (or an unusual schema) asks it.
  if (quickCheckFor(schema)?.(value)) return [];
  const validator = validatorFor(schema);
  const problems: string[] = [];
  if (validator && !validator.Check(value)) {
    const seen = new Set<string>();
    for (const issue of validator.Errors(value)) {
      // `additionalProperties: false` reports each extra key twice; keep the summary line.
      if (issue.keyword === "boolean" && issue.message === "schema is false") continue;
      const line = `  - ${issuePath(issue)}: ${issueMessage(issue)}`;
      if (!seen.has(line)) seen.add(line);
    }
    problems.push(...seen);
    if (problems.length === 0) problems.push("  - root: does not match the schema");
  }
  return problems;
}

const RECEIVED_MAX = 2_000;

/** Parses a JSON-string argument payload (a Gemini streaming quirk) into an object. */
export function parseToolArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  const trimmed = raw.trim();
  if (trimmed === "") return {};
  try {
    return JSON.parse(trimmed);
  } catch {
    return raw;
  }
}

/**
 * Validates tool arguments against the tool's JSON Schema (TypeBox 0.34, TypeBox 1.x,
 * hand-written or MCP-imported), after parsing, defaults and coercion. Returns the
 * arguments `execute` should see; throws a ToolInputError naming every failing path.
 */
export function validateToolArguments(
  tool: { name: string; parameters: object },
  rawArgs: unknown,
): Record<string, unknown> {
  const parsed = parseToolArguments(rawArgs);
  const value = coerceToSchema(tool.parameters, isPlainObject(parsed) ? cloneJson(parsed) : parsed);
  const problems = schemaIssues(tool.parameters, value);
  if (problems.length === 0) return value as Record<string, unknown>;
  // the arguments are echoed for the model to compare, but never more than a short page of them
  const received = JSON.stringify(parsed, null, 2) ?? String(parsed);
  const shown =
    received.length > RECEIVED_MAX
      ? `${received.slice(0, RECEIVED_MAX)}\n… (${received.length - RECEIVED_MAX} more characters not shown)`
      : received;
  throw new ToolInputError(
    `Validation failed for tool "${tool.name}":\n${problems.join("\n")}\n\nReceived arguments:\n${shown}`,
  );
}
