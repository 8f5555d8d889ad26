import { BundleConfigError } from "./errors.js";

/** One `plugins` entry of the config file: a name, or `{name, replaces?, config?}`. */
export interface PluginEntry {
  /** A package name, or a path from the file's directory. */
  name: string;
  /** A section an OpenClaw plugin may replace when its tools collide with it ("memory"). */
  replaces?: string;
  /** The OpenClaw plugin's configuration (`api.pluginConfig`), checked against its configSchema. */
  config?: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const SHAPE =
  'plugins must be an array of package names or paths, or {"name", "replaces"?, "config"?} (["@acme/clawtools-tools", {"name": "@mem0/openclaw-mem0", "replaces": "memory", "config": {…}}])';

/** Checks the config file's `plugins`; each error names the entry and what is wrong. */
export function readPluginEntries(value: unknown, where: string): PluginEntry[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new BundleConfigError(`${where}: ${SHAPE}`);
  return value.map((entry, index): PluginEntry => {
    if (typeof entry === "string" && entry.trim()) return { name: entry };
    if (!isObject(entry) || typeof entry.name !== "string" || !entry.name.trim())
      throw new BundleConfigError(`${where}: plugins[${index}]: ${SHAPE}`);
    const extra = Object.keys(entry).filter((k) => !["name", "replaces", "config"].includes(k));
    if (extra.length > 0)
      throw new BundleConfigError(
        `${where}: plugins[${index}]: unknown key ${extra.join(", ")} (expected name, replaces, config)`,
      );
    if (entry.replaces !== undefined && (typeof entry.replaces !== "string" || !entry.replaces.trim()))
      throw new BundleConfigError(`${where}: plugins[${index}].replaces must be a section id ("memory")`);
    if (entry.config !== undefined && !isObject(entry.config))
      throw new BundleConfigError(
        `${where}: plugins[${index}].config must be an object (the plugin's configuration)`,
      );
    return {
      name: entry.name,
      ...(entry.replaces !== undefined ? { replaces: entry.replaces as string } : {}),
      ...(entry.config !== undefined ? { config: entry.config as Record<string, unknown> } : {}),
    };
  });
}
