import { ToolInputError } from "./errors.js";

/** Tool arguments as they arrive from a model. */
export type ToolArgs = Record<string, unknown>;

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}

/** Reads `key`, falling back to its snake_case spelling (`filePath` → `file_path`). */
export function readParamRaw(params: ToolArgs, key: string): unknown {
  if (Object.hasOwn(params, key)) return params[key];
  const snake = snakeCase(key);
  if (snake !== key && Object.hasOwn(params, snake)) return params[snake];
  return undefined;
}

export interface StringParamOptions {
  required?: boolean;
  /** Trim surrounding whitespace (default true). */
  trim?: boolean;
  /** Name used in the "<label> required" error (default: the key). */
  label?: string;
  /** Keep "" instead of treating it as missing. */
  allowEmpty?: boolean;
}

export function readStringParam(
  params: ToolArgs,
  key: string,
  opts: StringParamOptions & { required: true },
): string;
export function readStringParam(params: ToolArgs, key: string, opts?: StringParamOptions): string | undefined;
export function readStringParam(
  params: ToolArgs,
  key: string,
  opts: StringParamOptions = {},
): string | undefined {
  const { required = false, trim = true, label = key, allowEmpty = false } = opts;
  let raw = readParamRaw(params, key);
  if (typeof raw === "number" && Number.isFinite(raw)) raw = String(raw);
  if (typeof raw !== "string") {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  const value = trim ? raw.trim() : raw;
  if (!value && !allowEmpty) {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  return value;
}

export interface NumberParamOptions {
  required?: boolean;
  label?: string;
  /** Truncate to an integer. */
  integer?: boolean;
  /** Parse strings with Number() (whole string must be numeric) instead of parseFloat. */
  strict?: boolean;
}

export function readNumberParam(
  params: ToolArgs,
  key: string,
  opts: NumberParamOptions & { required: true },
): number;
export function readNumberParam(params: ToolArgs, key: string, opts?: NumberParamOptions): number | undefined;
export function readNumberParam(
  params: ToolArgs,
  key: string,
  opts: NumberParamOptions = {},
): number | undefined {
  const { required = false, label = key, integer = false, strict = false } = opts;
  const raw = readParamRaw(params, key);
  let value: number | undefined;
  if (typeof raw === "number" && Number.isFinite(raw)) value = raw;
  else if (typeof raw === "string" && raw.trim()) {
    const parsed = strict ? Number(raw.trim()) : Number.parseFloat(raw.trim());
    if (Number.isFinite(parsed)) value = parsed;
  }
  if (value === undefined) {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  return integer ? Math.trunc(value) : value;
}

export interface StringArrayParamOptions {
  required?: boolean;
  label?: string;
}

export function readStringArrayParam(
  params: ToolArgs,
  key: string,
  opts: StringArrayParamOptions & { required: true },
): string[];
export function readStringArrayParam(
  params: ToolArgs,
  key: string,
  opts?: StringArrayParamOptions,
): string[] | undefined;
export function readStringArrayParam(
  params: ToolArgs,
  key: string,
  opts: StringArrayParamOptions = {},
): string[] | undefined {
  const { required = false, label = key } = opts;
  const raw = readParamRaw(params, key);
  const items = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [];
  const values = items
    .map((item) => (typeof item === "number" && Number.isFinite(item) ? String(item) : item))
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.trim())
    .filter(Boolean);
  if (values.length === 0) {
    if (required) throw new ToolInputError(`${label} required`);
    return undefined;
  }
  return values;
}

export function readStringOrNumberParam(
  params: ToolArgs,
  key: string,
  opts: { required: true; label?: string },
): string;
export function readStringOrNumberParam(
  params: ToolArgs,
  key: string,
  opts?: { required?: boolean; label?: string },
): string | undefined;
export function readStringOrNumberParam(
  params: ToolArgs,
  key: string,
  opts: { required?: boolean; label?: string } = {},
): string | undefined {
  const { required = false, label = key } = opts;
  const raw = readParamRaw(params, key);
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  if (typeof raw === "string" && raw.trim()) return raw.trim();
  if (required) throw new ToolInputError(`${label} required`);
  return undefined;
}
