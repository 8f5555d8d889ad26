import { ClawtoolsError } from "./clawtools-error.js";
import type { Static, TSchema } from "@sinclair/typebox";
import type { ToolContext } from "./tool.js";
import { coerceToSchema, schemaIssues } from "./validate.js";

const CONFIG = Symbol.for("clawtools.error.ConfigError");

/** A section's configuration does not match its schema; the message names every bad key. */
export class ConfigError extends ClawtoolsError {
  static override readonly marker: symbol = CONFIG;
  readonly [CONFIG] = true;
  override get code(): string {
    return "CLAWTOOLS_CONFIG";
  }
  readonly section: string;
  readonly issues: string[];
  constructor(section: string, issues: string[]) {
    super(`Invalid configuration for ${section}:\n${issues.join("\n")}`);
    this.name = "ConfigError";
    this.section = section;
    this.issues = issues;
  }
}

/** Whether `error` is a ConfigError from any copy of core (the marker, not `instanceof`). */
export function isConfigError(error: unknown): error is ConfigError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[CONFIG] === true;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Validates one section's configuration against its TypeBox schema (declare it with
 * `additionalProperties: false` so a misspelt key is an error, not silently ignored) and returns
 * it typed. `undefined` is an empty object. Throws `ConfigError` naming the section and each path.
 */
export function parseSectionConfig<T extends TSchema>(section: string, schema: T, value: unknown): Static<T> {
  const input = value === undefined ? {} : value;
  if (!isPlainObject(input)) throw new ConfigError(section, ["  - root: must be an object"]);
  const coerced = coerceToSchema(schema, structuredClone(input));
  const issues = schemaIssues(schema, coerced);
  if (issues.length > 0) throw new ConfigError(section, issues);
  return coerced as Static<T>;
}

/**
 * The configuration a section's tools run with: `ctx.config[section]` (what `--config` and
 * `createToolset({ context: { config } })` supply) overlaid by the options passed to the plugin
 * in code, validated together. Options in code win key by key.
 */
export function readSectionConfig<T extends TSchema>(
  ctx: Pick<ToolContext, "config">,
  section: string,
  schema: T,
  options?: Partial<Static<T>>,
): Static<T> {
  const fromContext = ctx.config?.[section];
  if (fromContext !== undefined && !isPlainObject(fromContext))
    throw new ConfigError(section, ["  - root: must be an object"]);
  const defined = Object.fromEntries(Object.entries(options ?? {}).filter(([, v]) => v !== undefined));
  return parseSectionConfig(section, schema, { ...(fromContext ?? {}), ...defined });
}
