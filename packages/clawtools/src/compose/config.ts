import path from "node:path";
import { type ClawtoolsPlugin, type ConfigError, isConfigError, parseSectionConfig } from "@clawtools/core";
import { getCoreSections } from "@clawtools/core/catalog";
import { schemaIssues } from "@clawtools/core/wrap";
import { TOOL_SURFACES, type ToolSurface } from "@clawtools/core/surface";
import { BUNDLE_KEYS, bundleConfigSchema } from "./config-schema.js";
import { BundleConfigError } from "./errors.js";
import { type PluginEntry, readPluginEntries } from "./plugin-entries.js";
import { checkStoreUrl } from "./store-url.js";
import { checkGatewayUrl } from "./gateway-options.js";

/** An ACP (Agent Client Protocol) agent started over stdio for sessions_spawn runtime=acp. */
export interface AcpHarness {
  command: string;
  args?: string[];
}

/**
 * What `composeBundle` takes: the keys `clawtools serve --config` reads (one per section, plus
 * `plugins`, `mcpServers`, `store`, `gateway`, `stateDir`…) and the ones its flags set (`workspace`,
 * `profile`, `allow`, `deny`, `owner`, `provider`, `model`…). Its JSON Schema is
 * `bundleConfigSchema` (published as clawtools/clawtools.schema.json).
 */
export interface BundleConfig {
  $schema?: string;
  /** The workspace root (default: the current directory). */
  workspace?: string;
  /** Where derived state goes (default: one directory per workspace under the XDG state home). */
  stateDir?: string;
  profile?: string;
  allow?: string[];
  /** Never these tools: not in the bundle, nor in its sub-agents' and cron turns' toolsets. */
  deny?: string[];
  owner?: boolean;
  provider?: string;
  /** `provider/model` sub-agents and cron agent turns run on (and image when media names none). */
  model?: string;
  acp?: AcpHarness;
  allowPrivateNetwork?: boolean;
  plugins?: Array<string | PluginEntry>;
  pluginReplaces?: string[];
  mcpServers?: Record<string, unknown>;
  /** `postgres://…`: sessions, runs and cron jobs in PostgreSQL. */
  store?: string;
  /** The PostgreSQL store's pool size (default 4). */
  storeConnections?: number;
  /** The agent the bundle acts as (default "cli"): its tools work in `agent:<agentId>:main`. */
  agentId?: string;
  /** `ws://HOST:PORT`: an OpenClaw Gateway backs nodes, sessions, cron and messaging. */
  gateway?: string;
  gatewayToken?: string;
  /** Which tools a host sees: every tool (`direct`, the default) or the Tool Search controls over them (`search`). */
  surface?: ToolSurface;
  /** The bundle's own secret variables (provider keys, PGPASSWORD…) that commands it runs may still inherit. */
  passEnv?: string[];
  /** `serve`'s own settings, accepted here so one file serves both. */
  root?: string;
  allowOrigins?: string[];
  sessionIdleMinutes?: number;
  maxSessions?: number;
  /** Section settings: `"runtime": {…}`, `"web": {…}`… */
  [section: string]: unknown;
}

/** A BundleConfig checked: section settings validated, paths resolved. */
export interface ResolvedBundleConfig {
  workspace: string;
  sections: Record<string, unknown>;
  stateDir?: string;
  profile?: string;
  allow?: string[];
  deny?: string[];
  owner: boolean;
  provider?: string;
  model?: string;
  acp?: AcpHarness;
  pluginEntries: PluginEntry[];
  pluginReplaces: string[];
  mcpServers: Record<string, unknown>;
  store?: string;
  storeConnections?: number;
  agentId?: string;
  gateway?: string;
  gatewayToken?: string;
  surface: ToolSurface;
  passEnv: string[];
  /** `serve`'s own keys, as given (the CLI checks and uses them). */
  serve: Pick<BundleConfig, "root" | "allowOrigins" | "sessionIdleMinutes" | "maxSessions">;
  /** Keys accepted without a check (a section that is not installed, a plugin without a schema). */
  warnings: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One line from a ConfigError: `runtime: exec.security: must be …; …`. */
function oneLine(error: ConfigError): string {
  return `${error.section}: ${error.issues.map((i) => i.trim().replace(/^- /, "")).join("; ")}`;
}

/** Keys checked by hand below (their messages show the expected shape); the rest by the schema. */
const SHAPED = new Set([
  "plugins",
  "mcpServers",
  "acp",
  "store",
  "gateway",
  "stateDir",
  "model",
  "surface",
  "passEnv",
  // serve's own: the CLI checks them, naming the flag they stand for
  "root",
  "allowOrigins",
  "sessionIdleMinutes",
  "maxSessions",
]);

/**
 * Checks a bundle configuration: the bundle's own keys against the schema, each section against
 * its plugin's configuration schema. `where` names the configuration in errors (`--config f.json`),
 * `baseDir` is where relative paths are taken from.
 */
export function readBundleConfig(
  raw: BundleConfig,
  plugins: readonly ClawtoolsPlugin[],
  options: { where?: string; baseDir?: string } = {},
): ResolvedBundleConfig {
  const where = options.where ?? "configuration";
  const baseDir = options.baseDir ?? process.cwd();
  if (!isObject(raw)) throw new BundleConfigError(`${where} must be a JSON object`);
  const own = new Set<string>(BUNDLE_KEYS);
  const sections: Record<string, unknown> = {};
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (own.has(key)) given[key] = value;
    else sections[key] = value;
  }
  const schema = bundleConfigSchema(plugins) as { properties: Record<string, object> };
  for (const [key, value] of Object.entries(given)) {
    if (SHAPED.has(key)) continue;
    const issues = schemaIssues(
      { type: "object", properties: { [key]: schema.properties[key]! } },
      { [key]: value },
    );
    if (issues.length > 0)
      throw new BundleConfigError(`${where}: ${issues.map((i) => i.trim().replace(/^- /, "")).join("; ")}`);
  }
  const { mcpServers, acp, store, gateway, stateDir, model } = given;
  if (mcpServers !== undefined && !isObject(mcpServers))
    throw new BundleConfigError(
      `${where}: mcpServers must be an object: {"<name>": {"command": …} or {"url": …}}`,
    );
  const pluginEntries = readPluginEntries(given.plugins, where);
  if (store !== undefined) checkStoreUrl(store, `${where}: store`);
  if (gateway !== undefined) checkGatewayUrl(gateway as string, `${where}: gateway`);
  const { surface, passEnv, root } = given;
  if (surface !== undefined && !(TOOL_SURFACES as readonly unknown[]).includes(surface))
    throw new BundleConfigError(
      `${where}: surface must be ${TOOL_SURFACES.map((s) => `"${s}"`).join(" or ")}`,
    );
  if (
    passEnv !== undefined &&
    !(
      Array.isArray(passEnv) &&
      passEnv.every((n: unknown) => typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))
    )
  )
    throw new BundleConfigError(`${where}: passEnv must be a list of variable names (["OPENAI_API_KEY"])`);
  if (root !== undefined && (typeof root !== "string" || root.trim() === ""))
    throw new BundleConfigError(`${where}: root must be a non-empty string (a client root's name or path)`);
  if (stateDir !== undefined && typeof stateDir !== "string")
    throw new BundleConfigError(`${where}: stateDir must be a string (a directory)`);
  if (model !== undefined && (typeof model !== "string" || !/^[^/\s]+\/\S+$/.test(model)))
    throw new BundleConfigError(`${where}: model must be "provider/model" (for example openai/gpt-4o-mini)`);
  if (
    acp !== undefined &&
    !(
      isObject(acp) &&
      typeof acp.command === "string" &&
      acp.command.length > 0 &&
      Object.keys(acp).every((k) => k === "command" || k === "args") &&
      (acp.args === undefined ||
        (Array.isArray(acp.args) && acp.args.every((a: unknown) => typeof a === "string")))
    )
  )
    throw new BundleConfigError(
      `${where}: acp must be {"command": "<program>", "args": ["<arg>", …]} (an ACP agent started over stdio)`,
    );
  // settings that are section configuration (allowPrivateNetwork) merge into their section
  const installed = new Set(plugins.map((p) => p.section ?? p.id));
  if (given.allowPrivateNetwork === true) {
    const extra: Record<string, Record<string, unknown>> = {
      ...(installed.has("web") ? { web: { fetch: { allowPrivateNetwork: true } } } : {}),
      ...(installed.has("ui") ? { ui: { browser: { allowPrivateNetwork: true } } } : {}),
    };
    for (const [section, value] of Object.entries(extra)) {
      const current = sections[section];
      if (current !== undefined && !isObject(current))
        throw new BundleConfigError(`${where}: ${section}: root: must be an object`);
      sections[section] = deepMerge(current ?? {}, value);
    }
  }
  const known = new Set(getCoreSections().map((s) => s.id as string));
  const warnings: string[] = [];
  const validated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sections)) {
    const plugin = plugins.find((p) => (p.section ?? p.id) === key);
    if (!plugin) {
      if (!known.has(key))
        throw new BundleConfigError(
          `${where}: unknown key "${key}" (expected ${BUNDLE_KEYS.filter((k) => k !== "$schema").join(", ")} or a section: ${[...known].join(", ")})`,
        );
      warnings.push(`config: "${key}" is not used: its section is not installed`);
      validated[key] = value;
      continue;
    }
    if (!plugin.configSchema) {
      warnings.push(
        `config: "${key}" is passed to ${plugin.id} unchecked (it declares no configuration schema)`,
      );
      validated[key] = value;
      continue;
    }
    try {
      validated[key] = parseSectionConfig(key, plugin.configSchema, value);
    } catch (error) {
      if (isConfigError(error))
        throw new BundleConfigError(`invalid ${where}: ${oneLine(error as ConfigError)}`);
      throw error;
    }
  }
  const str = (key: string) => given[key] as string | undefined;
  const list = (key: string) => given[key] as string[] | undefined;
  return {
    workspace: path.resolve(baseDir, str("workspace") ?? "."),
    sections: validated,
    ...(stateDir !== undefined ? { stateDir: path.resolve(baseDir, stateDir as string) } : {}),
    ...(str("profile") ? { profile: str("profile")! } : {}),
    ...(list("allow") ? { allow: list("allow")! } : {}),
    ...(list("deny") ? { deny: list("deny")! } : {}),
    owner: given.owner === true,
    ...(str("provider") ? { provider: str("provider")! } : {}),
    ...(model !== undefined ? { model: model as string } : {}),
    ...(acp !== undefined ? { acp: acp as unknown as AcpHarness } : {}),
    pluginEntries,
    pluginReplaces: list("pluginReplaces") ?? [],
    mcpServers: (mcpServers as Record<string, unknown> | undefined) ?? {},
    ...(store !== undefined ? { store: store as string } : {}),
    ...(given.storeConnections !== undefined ? { storeConnections: given.storeConnections as number } : {}),
    ...(str("agentId") ? { agentId: str("agentId")! } : {}),
    ...(gateway !== undefined ? { gateway: gateway as string } : {}),
    ...(str("gatewayToken") ? { gatewayToken: str("gatewayToken")! } : {}),
    surface: (surface as ToolSurface | undefined) ?? "direct",
    passEnv: (passEnv as string[] | undefined) ?? [],
    serve: {
      ...(given.root !== undefined ? { root: given.root as string } : {}),
      ...(given.allowOrigins !== undefined ? { allowOrigins: given.allowOrigins as string[] } : {}),
      ...(given.sessionIdleMinutes !== undefined
        ? { sessionIdleMinutes: given.sessionIdleMinutes as number }
        : {}),
      ...(given.maxSessions !== undefined ? { maxSessions: given.maxSessions as number } : {}),
    },
    warnings,
  };
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}
