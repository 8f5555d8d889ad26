import { readFileSync } from "node:fs";
import path from "node:path";
import { normalizeOrigin } from "@clawtools/mcp/origin";
import type { BundleConfig } from "clawtools/compose";
import { type CommonOptions, invocationDir } from "./options.js";
import { UsageError } from "./usage-error.js";

/** `allowOrigins`, `sessionIdleMinutes`, `maxSessions`: what `serve --http` takes from the file. */
export interface HttpConfig {
  allowOrigins?: string[];
  sessionIdleMinutes?: number;
  maxSessions?: number;
}

/** The `--config` file as the CLI reads it: the bundle's configuration and serve's own settings. */
export interface CliConfigFile {
  /** The file's JSON object (empty without --config). */
  raw: BundleConfig;
  /** `--config <file>` or "configuration": names the file in errors. */
  where: string;
  /** Where the file's relative paths are taken from. */
  dir: string;
  /** `serve --http` settings from the file (the flags win). */
  http: HttpConfig;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks the file's serve --http keys; each error names the key and what it must be. */
function readHttpConfig(where: string, raw: Record<string, unknown>): HttpConfig {
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

/**
 * Reads the `--config` JSON file (when given; else the file `$CLAWTOOLS_CONFIG` names, for hosts
 * whose own command line takes `--config`, such as the MCP Inspector) and checks serve's own keys.
 */
export function readConfigFile(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): CliConfigFile {
  const here = invocationDir();
  const fromEnv = file === undefined && env.CLAWTOOLS_CONFIG ? env.CLAWTOOLS_CONFIG : undefined;
  const name = file ?? fromEnv;
  if (name === undefined) return { raw: {}, where: "configuration", dir: here, http: {} };
  const full = path.resolve(here, name);
  const source = fromEnv === undefined ? "--config" : "$CLAWTOOLS_CONFIG";
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${source} ${full}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} ${full} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new UsageError(`${source} ${full} must hold a JSON object`);
  const where = `${source} ${full}`;
  return { raw: parsed as BundleConfig, where, dir: path.dirname(full), http: readHttpConfig(where, parsed) };
}

/**
 * The bundle configuration a command composes: the file's keys with the flags over them (a
 * flag's relative path resolved from where the command was typed, the file's from its folder).
 * `--plugin`s come first, then the file's `plugins`.
 */
export function bundleConfigFrom(options: CommonOptions, file: CliConfigFile): BundleConfig {
  const here = invocationDir();
  const raw = file.raw;
  const flagPlugins = options.plugin ?? [];
  const nodes =
    options.nodes === undefined
      ? raw.nodes
      : isObject(raw.nodes)
        ? { ...raw.nodes, host: options.nodes }
        : raw.nodes === undefined
          ? { host: options.nodes }
          : raw.nodes;
  return {
    ...raw,
    // without --workspace and without the file's, the directory the command was typed in
    workspace:
      options.workspaceGiven || raw.workspace === undefined
        ? path.resolve(here, options.workspace)
        : raw.workspace,
    ...(options.stateDir !== undefined ? { stateDir: path.resolve(here, options.stateDir) } : {}),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    ...(options.allow ? { allow: options.allow } : {}),
    ...(options.deny ? { deny: options.deny } : {}),
    ...(options.owner ? { owner: true } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(nodes !== undefined ? { nodes } : {}),
    ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
    ...(flagPlugins.length > 0 && Array.isArray(raw.plugins ?? [])
      ? { plugins: [...flagPlugins, ...(raw.plugins ?? [])] }
      : {}),
    ...(options.pluginReplaces
      ? {
          pluginReplaces: [
            ...options.pluginReplaces,
            ...(Array.isArray(raw.pluginReplaces) ? raw.pluginReplaces : []),
          ],
        }
      : {}),
    ...(options.store !== undefined ? { store: options.store } : {}),
    ...(options.storeConnections !== undefined ? { storeConnections: options.storeConnections } : {}),
    ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
    ...(options.gateway !== undefined ? { gateway: options.gateway } : {}),
    ...(options.gatewayToken !== undefined ? { gatewayToken: options.gatewayToken } : {}),
    ...(options.surface !== undefined ? { surface: options.surface } : {}),
    ...(options.root !== undefined ? { root: options.root } : {}),
  };
}

/** Each `plugins` entry's origin: a `--plugin` (from where the command was typed) or the file's. */
export function pluginOrigin(options: CommonOptions, file: CliConfigFile) {
  const flags = options.plugin?.length ?? 0;
  return (index: number) =>
    index < flags ? { from: "--plugin", base: invocationDir() } : { from: file.where, base: file.dir };
}
