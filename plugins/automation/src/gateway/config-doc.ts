import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ClawtoolsError } from "@clawtools/core";
import { withWriteLock } from "@clawtools/core/safety";
import { writeJsonAtomic } from "@clawtools/core/state";
import { schemaIssues } from "@clawtools/core/wrap";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Written in place of secret-looking values by `config.get`; a write that keeps it keeps the stored value. */
export const REDACTED = "__CLAWTOOLS_REDACTED__";
const SECRET_KEY = /(token|secret|password|passwd|api[-_]?key|private[-_]?key|credential)s?$/i;

/** Stable JSON (sorted keys) so the same configuration always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

export const configHash = (config: unknown) => createHash("sha256").update(canonical(config)).digest("hex");

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      SECRET_KEY.test(key) && typeof v === "string" ? REDACTED : redact(v),
    ]),
  );
}

/** Puts back the stored value wherever the new document still carries the redaction marker. */
export function restoreRedacted(next: unknown, previous: unknown): unknown {
  if (next === REDACTED) return previous;
  if (Array.isArray(next))
    return next.map((item, i) => restoreRedacted(item, Array.isArray(previous) ? previous[i] : undefined));
  if (!isObject(next)) return next;
  const prev = isObject(previous) ? previous : {};
  return Object.fromEntries(Object.entries(next).map(([key, v]) => [key, restoreRedacted(v, prev[key])]));
}

/**
 * JSON merge patch (RFC 7386): null deletes, objects merge, anything else replaces; an array of
 * objects that all carry an `id` is merged element by element by id (OpenClaw's rule).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (
    Array.isArray(patch) &&
    Array.isArray(target) &&
    [...patch, ...target].every((v) => isObject(v) && typeof v.id === "string")
  ) {
    const out = (target as Json[]).map((item) => ({ ...item }));
    for (const item of patch as Json[]) {
      const index = out.findIndex((existing) => existing.id === item.id);
      if (index === -1) out.push(item);
      else out[index] = mergePatch(out[index], item) as Json;
    }
    return out;
  }
  if (!isObject(patch)) return patch;
  const out: Json = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Dotted paths whose value differs between two documents (descending into objects). */
export function changedPaths(before: unknown, after: unknown, prefix = ""): string[] {
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) =>
      changedPaths(before[key], after[key], prefix ? `${prefix}.${key}` : key),
    );
  }
  return canonical(before) === canonical(after) ? [] : [prefix || "(root)"];
}

/** The JSON Schema of a dotted path (`web.fetch.maxChars`, `agents.list.0`): through properties, additionalProperties and items. */
export function lookupSchema(schema: unknown, path: string): unknown {
  let node: unknown = schema;
  const parts = path.split(".").filter(Boolean);
  for (const part of parts) {
    if (!isObject(node)) return undefined;
    const properties = isObject(node.properties) ? node.properties : undefined;
    if (properties && part in properties) node = properties[part];
    else if (isObject(node.items) && /^\d+$|^\*$/.test(part)) node = node.items;
    else if (isObject(node.additionalProperties)) node = node.additionalProperties;
    else if (isObject(node.patternProperties)) node = Object.values(node.patternProperties)[0];
    else return undefined;
  }
  return node;
}

const CONFIG_CONFLICT_ERROR = Symbol.for("clawtools.error.ConfigConflictError");

export class ConfigConflictError extends ClawtoolsError {
  static override readonly marker: symbol = CONFIG_CONFLICT_ERROR;
  readonly [CONFIG_CONFLICT_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_CONFIG_CONFLICT";
  }
  override name = "ConfigConflictError";
}

/** Whether `error` is a ConfigConflictError from any copy of this package (its brand, not `instanceof`). */
export function isConfigConflictError(error: unknown): error is ConfigConflictError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[CONFIG_CONFLICT_ERROR] === true
  );
}

/**
 * The app's configuration as the gateway tool sees it: a JSON file (the one `--config` reads)
 * when a path is given, else an object in memory. Writes are validated against the schema,
 * guarded by the hash of what the writer last read, serialised, and atomic on disk.
 */
export class ConfigDocument {
  private memory: Json;
  constructor(
    private readonly options: {
      initial?: Json;
      path?: string;
      schema?: object;
      onChange?: (config: Json) => void;
    },
  ) {
    this.memory = structuredClone(options.initial ?? {});
  }

  get path(): string | undefined {
    return this.options.path;
  }

  async read(): Promise<Json> {
    if (!this.options.path) return structuredClone(this.memory);
    let text: string;
    try {
      text = await readFile(this.options.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return structuredClone(this.memory);
      throw error;
    }
    const parsed = JSON.parse(text) as unknown;
    if (!isObject(parsed)) throw new Error(`config file ${this.options.path} does not hold a JSON object`);
    return parsed;
  }

  /** Issues of a candidate configuration against the schema (empty: valid). */
  issues(candidate: Json): string[] {
    return this.options.schema ? schemaIssues(this.options.schema, candidate) : [];
  }

  /**
   * Replaces the configuration with `build(current)` if its hash is still `baseHash`. The check,
   * the validation and the write happen under one lock, so of two writers with the same base
   * exactly one wins. `check` may refuse the change before anything is written.
   */
  async write(
    baseHash: string,
    build: (current: Json) => Json,
    check: (current: Json, next: Json) => void,
  ): Promise<{ config: Json; hash: string }> {
    return withWriteLock(this.options.path ?? "clawtools:gateway-config", async () => {
      const current = await this.read();
      const currentHash = configHash(current);
      if (currentHash !== baseHash)
        throw new ConfigConflictError(
          `config changed since baseHash ${baseHash.slice(0, 12)} (current hash ${currentHash}); run config.get and retry`,
        );
      const next = build(current);
      check(current, next);
      if (this.options.path) await writeJsonAtomic(this.options.path, next, { durable: true });
      this.memory = structuredClone(next);
      this.options.onChange?.(structuredClone(next));
      return { config: next, hash: configHash(next) };
    });
  }
}
