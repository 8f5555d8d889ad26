import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/** What an OpenClaw plugin package declares: `openclaw.plugin.json` plus package.json's `openclaw`. */
export interface OpenClawManifest {
  /** The package (or plugin) directory. */
  dir: string;
  /** `openclaw.plugin.json` `id`. */
  id: string;
  name?: string;
  description?: string;
  /** `kind` (e.g. "memory": OpenClaw's memory slot). */
  kind?: string;
  /** package.json `version`, else the manifest's, else 0.0.0. */
  version: string;
  /** `contracts.tools`: the tool names the plugin declares. */
  contractTools: string[];
  /** `toolMetadata.<name>.optional`. */
  optionalTools: string[];
  /** `configSchema` (JSON Schema) of the plugin's configuration. */
  configSchema?: Record<string, unknown>;
  /** Absolute paths of the entry files (`openclaw.extensions`, else package.json `main`). */
  entries: string[];
}

const MANIFEST = "openclaw.plugin.json";

function readJson(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${file}: must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether `dir` holds an OpenClaw plugin (its manifest file). */
export function isOpenClawPluginDir(dir: string): boolean {
  return existsSync(path.join(dir, MANIFEST)) && statSync(dir).isDirectory();
}

/**
 * Reads and checks an OpenClaw plugin's manifest and entry list. Every problem is an error
 * naming the file and what is wrong: a plugin is never half loaded.
 */
export function readOpenClawManifest(given: string): OpenClawManifest {
  if (!existsSync(given)) throw new Error(`${given}: no such directory`);
  // the real path: a package linked into node_modules (pnpm) finds its dependencies beside it
  const dir = realpathSync(given);
  const manifestFile = path.join(dir, MANIFEST);
  if (!existsSync(manifestFile)) throw new Error(`${dir}: no ${MANIFEST} (not an OpenClaw plugin)`);
  const manifest = readJson(manifestFile);
  const pkgFile = path.join(dir, "package.json");
  const pkg = existsSync(pkgFile) ? readJson(pkgFile) : {};
  const id = manifest.id;
  if (typeof id !== "string" || !id.trim())
    throw new Error(`${manifestFile}: "id" must be a non-empty string`);
  const contracts = isObject(manifest.contracts) ? manifest.contracts : {};
  const tools = contracts.tools ?? [];
  if (!Array.isArray(tools) || !tools.every((t) => typeof t === "string"))
    throw new Error(`${manifestFile}: contracts.tools must be an array of tool names`);
  const toolMetadata = isObject(manifest.toolMetadata) ? manifest.toolMetadata : {};
  const optionalTools = Object.entries(toolMetadata)
    .filter(([, meta]) => isObject(meta) && meta.optional === true)
    .map(([name]) => name);
  if (manifest.configSchema !== undefined && !isObject(manifest.configSchema))
    throw new Error(`${manifestFile}: configSchema must be a JSON Schema object`);
  const openclaw = isObject(pkg.openclaw) ? pkg.openclaw : {};
  const declared = openclaw.extensions ?? (typeof pkg.main === "string" ? [pkg.main] : undefined);
  if (!Array.isArray(declared) || declared.length === 0 || !declared.every((e) => typeof e === "string"))
    throw new Error(`${pkgFile}: openclaw.extensions must list the plugin's entry files`);
  const entries = declared.map((entry) => {
    const file = path.resolve(dir, entry);
    // an entry outside the package is refused: the manifest names files of the plugin itself
    if (path.relative(dir, file).startsWith(".."))
      throw new Error(`${pkgFile}: entry ${entry} is outside the package`);
    if (!existsSync(file)) throw new Error(`${pkgFile}: entry ${entry} does not exist`);
    return file;
  });
  const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  const name = text(manifest.name);
  const description = text(manifest.description) ?? text(pkg.description);
  const kind = text(manifest.kind);
  return {
    dir,
    id,
    ...(name ? { name } : {}),
    ...(description ? { description } : {}),
    ...(kind ? { kind } : {}),
    version: text(pkg.version) ?? text(manifest.version) ?? "0.0.0",
    contractTools: tools as string[],
    optionalTools,
    ...(manifest.configSchema ? { configSchema: manifest.configSchema as Record<string, unknown> } : {}),
    entries,
  };
}
