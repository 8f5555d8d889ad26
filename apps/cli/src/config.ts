import { readFileSync } from "node:fs";
import path from "node:path";
import { type ConfigError, getCoreSections, isConfigError, parseSectionConfig } from "@clawtools/core";
import { TOOL_SURFACES, type ToolSurface } from "@clawtools/core/surface";
import { normalizeOrigin } from "@clawtools/mcp/origin";
import type { Clawtools } from "clawtools";
import { type PluginEntry, readPluginEntries } from "./plugin-entries.js";
import { checkStoreUrl } from "./store/url.js";
import { UsageError } from "./usage.js";

/** A `--config` file: `ctx.config` (one key per section) plus where derived state goes. */
export interface CliConfig {
  /** Section configurations, validated against each installed plugin's schema. */
  sections: Record<string, unknown>;
  /** `stateDir` from the file, resolved against the file's directory. */
  stateDir?: string;
  /** `model` from the file: `provider/model` for sub-agents and image (the `--model` flag wins). */
  model?: string;
  /** `acp` from the file: the ACP harness sessions_spawn runtime=acp runs children in. */
  acp?: AcpHarness;
  /** `serve --http` settings from the file (the flags win). */
  http: HttpConfig;
  /** `plugins` from the file: clawtools plugins to load (packages, or paths from the file's directory). */
  plugins: string[];
  /** The same entries with their `replaces` and `config` (OpenClaw plugins). */
  pluginEntries: PluginEntry[];
  /** `mcpServers` from the file (Claude Desktop's shape), checked in full when they are mounted. */
  mcpServers: Record<string, unknown>;
  /** `store` from the file: `postgres://…` for sessions, runs and cron (the `--store` flag wins). */
  store?: string;
  /** `root` from the file: which of a stdio client's roots serve works in (the `--root` flag wins). */
  root?: string;
  /** `surface` from the file: which tools a host sees (the `--surface` flag wins). */
  surface?: ToolSurface;
  /** `passEnv` from the file: serve's own secret variables (provider keys) commands may still see. */
  passEnv?: string[];
  /** Keys accepted without a check (a section that is not installed, a plugin without a schema). */
  warnings: string[];
}

/** `allowOrigins`, `sessionIdleMinutes`, `maxSessions`: what `serve --http` takes from the file. */
export interface HttpConfig {
  allowOrigins?: string[];
  sessionIdleMinutes?: number;
  maxSessions?: number;
}

/** Checks the file's serve --http keys; each error names the key and what it must be. */
function readHttpConfig(
  where: string,
  raw: { allowOrigins?: unknown; sessionIdleMinutes?: unknown; maxSessions?: unknown },
): HttpConfig {
  const out: HttpConfig = {};
  if (raw.allowOrigins !== undefined) {
    if (!Array.isArray(raw.allowOrigins) || !raw.allowOrigins.every((o) => typeof o === "string"))
      throw new UsageError(
        `${where}: allowOrigins must be an array of origins (["https://app.example.com"])`,
      );
    for (const origin of raw.allowOrigins) {
      try {
        normalizeOrigin(origin);
      } catch (error) {
        throw new UsageError(`${where}: allowOrigins: ${(error as Error).message}`);
      }
    }
    out.allowOrigins = raw.allowOrigins as string[];
  }
  const n = raw.sessionIdleMinutes;
  if (n !== undefined) {
    if (typeof n !== "number" || !Number.isFinite(n) || n <= 0)
      throw new UsageError(`${where}: sessionIdleMinutes must be a positive number`);
    out.sessionIdleMinutes = n;
  }
  const m = raw.maxSessions;
  if (m !== undefined) {
    if (typeof m !== "number" || !Number.isInteger(m) || m <= 0)
      throw new UsageError(`${where}: maxSessions must be a positive integer`);
    out.maxSessions = m;
  }
  return out;
}

/** An ACP (Agent Client Protocol) agent the CLI starts over stdio for runtime=acp spawns. */
export interface AcpHarness {
  command: string;
  args?: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One line from a ConfigError: `runtime: exec.security: must be …; …`. */
function oneLine(error: ConfigError): string {
  return `${error.section}: ${error.issues.map((i) => i.trim().replace(/^- /, "")).join("; ")}`;
}

/** Reads the JSON file (when given) and validates every section against its plugin's schema. */
export function loadConfig(
  file: string | undefined,
  clawtools: Clawtools,
  extra: Record<string, Record<string, unknown>> = {},
): CliConfig {
  let raw: Record<string, unknown> = {};
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `cannot read --config ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--config ${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (!isObject(parsed)) throw new UsageError(`--config ${file} must hold a JSON object`);
    raw = parsed;
  }
  const where = file === undefined ? "configuration" : `--config ${file}`;
  const {
    stateDir,
    model,
    acp,
    allowOrigins,
    sessionIdleMinutes,
    maxSessions,
    plugins: named,
    mcpServers,
    store,
    root,
    surface,
    passEnv,
    ...sections
  } = raw;
  if (mcpServers !== undefined && !isObject(mcpServers))
    throw new UsageError(`${where}: mcpServers must be an object: {"<name>": {"command": …} or {"url": …}}`);
  const pluginEntries = readPluginEntries(named, where);
  const http = readHttpConfig(where, { allowOrigins, sessionIdleMinutes, maxSessions });
  if (store !== undefined) checkStoreUrl(store, `${where}: store`);
  if (
    passEnv !== undefined &&
    !(
      Array.isArray(passEnv) &&
      passEnv.every((n: unknown) => typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))
    )
  )
    throw new UsageError(`${where}: passEnv must be a list of variable names (["OPENAI_API_KEY"])`);
  if (root !== undefined && (typeof root !== "string" || root.trim() === ""))
    throw new UsageError(`${where}: root must be a non-empty string (a client root's name or path)`);
  if (surface !== undefined && !(TOOL_SURFACES as readonly unknown[]).includes(surface))
    throw new UsageError(`${where}: surface must be ${TOOL_SURFACES.map((s) => `"${s}"`).join(" or ")}`);
  if (stateDir !== undefined && typeof stateDir !== "string")
    throw new UsageError(`${where}: stateDir must be a string (a directory)`);
  if (model !== undefined && (typeof model !== "string" || !/^[^/\s]+\/\S+$/.test(model)))
    throw new UsageError(`${where}: model must be "provider/model" (for example openai/gpt-4o-mini)`);
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
    throw new UsageError(
      `${where}: acp must be {"command": "<program>", "args": ["<arg>", …]} (an ACP agent started over stdio)`,
    );
  // flags that are configuration (--allow-private-network) merge into their section
  for (const [section, value] of Object.entries(extra)) {
    const current = sections[section];
    if (current !== undefined && !isObject(current))
      throw new UsageError(`${where}: ${section}: root: must be an object`);
    sections[section] = deepMerge(current ?? {}, value);
  }
  const plugins = clawtools.tools.plugins();
  const known = new Set(getCoreSections().map((s) => s.id as string));
  const warnings: string[] = [];
  const validated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sections)) {
    const plugin = plugins.find((p) => (p.section ?? p.id) === key);
    if (!plugin) {
      if (!known.has(key))
        throw new UsageError(
          `${where}: unknown key "${key}" (expected stateDir, model, acp, plugins, mcpServers, allowOrigins, sessionIdleMinutes, maxSessions, store, root, surface, passEnv or a section: ${[...known].join(", ")})`,
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
      if (isConfigError(error)) throw new UsageError(`invalid ${where}: ${oneLine(error as ConfigError)}`);
      throw error;
    }
  }
  return {
    sections: validated,
    ...(model !== undefined ? { model: model as string } : {}),
    ...(acp !== undefined ? { acp: acp as unknown as AcpHarness } : {}),
    ...(stateDir !== undefined
      ? { stateDir: file === undefined ? stateDir : path.resolve(path.dirname(file), stateDir) }
      : {}),
    http,
    plugins: pluginEntries.map((entry) => entry.name),
    pluginEntries,
    mcpServers: (mcpServers as Record<string, unknown> | undefined) ?? {},
    ...(store !== undefined ? { store: store as string } : {}),
    ...(root !== undefined ? { root: root as string } : {}),
    ...(surface !== undefined ? { surface: surface as ToolSurface } : {}),
    ...(passEnv !== undefined ? { passEnv: passEnv as string[] } : {}),
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
