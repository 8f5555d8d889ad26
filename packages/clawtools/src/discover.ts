import { type ClawtoolsPlugin, type ToolDiagnostic, ToolRegistry } from "@clawtools/core";
import { expandToolGroups, normalizeToolName } from "@clawtools/core/policy";
import { getCoreToolCatalog, getCoreSections, type SectionId } from "@clawtools/core/catalog";
import { lazySectionPlugin } from "./lazy.js";
import { installedVersion } from "./installed.js";
import { SECTION_MANIFESTS } from "./manifests/index.js";

/** The package that implements each section. */
export const SECTION_PACKAGES: Readonly<Partial<Record<SectionId, string>>> = {
  fs: "@clawtools/fs",
  runtime: "@clawtools/runtime",
  web: "@clawtools/web",
  memory: "@clawtools/memory",
  sessions: "@clawtools/sessions",
  ui: "@clawtools/ui",
  messaging: "@clawtools/messaging",
  automation: "@clawtools/automation",
  nodes: "@clawtools/nodes",
  agents: "@clawtools/agents",
  media: "@clawtools/media",
};

export interface DiscoverOptions {
  /**
   * Only these tools: tool ids (`read`), `group:` references (`group:fs`, `group:openclaw`) or
   * section ids (`fs`, the whole section). Omitted: every tool of every installed section.
   */
  include?: string[];
  /** Never these tools: tool ids, `group:` references or section ids. Exclude wins over include. */
  exclude?: string[];
  /** Called once for every section that could not be loaded (not installed, failed, no plugin). */
  onLoadWarning?: (message: string) => void;
  /** Resolves a package name to its module (tests, bundlers); default is dynamic import. */
  importer?: (specifier: string) => Promise<unknown>;
  /**
   * List a section's tools from its manifest and import the section on the first call of one of
   * them (`clawtools serve` starts without loading sections it does not use). Only for sections
   * with a manifest whose installed version matches it; the others are imported as usual.
   */
  lazy?: boolean;
}

export interface DiscoveredSection {
  section: SectionId;
  packageName: string;
  plugin?: ClawtoolsPlugin;
  /** Why the section is not available (not installed, no plugin export). */
  missing?: string;
}

function isPlugin(value: unknown): value is ClawtoolsPlugin {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as ClawtoolsPlugin).tools) &&
    typeof (value as ClawtoolsPlugin).id === "string"
  );
}

const SECTION_SET: ReadonlySet<string> = new Set(Object.keys(SECTION_PACKAGES));

/**
 * An include / exclude list as a test on (tool id, section id): a tool id, a `group:`
 * reference (expanded as the policy expands it) or a section id (all of its tools, the
 * catalog's and the package's own extras).
 */
function toolSelector(list: readonly string[]): {
  matches: (toolId: string, sectionId: string) => boolean;
  sections: Set<string>;
  ids: Set<string>;
} {
  const sections = new Set<string>();
  const ids = new Set<string>();
  for (const entry of list.map(normalizeToolName).filter(Boolean)) {
    if (SECTION_SET.has(entry)) sections.add(entry);
    else for (const id of expandToolGroups([entry])) ids.add(id);
  }
  return { matches: (toolId, sectionId) => ids.has(toolId) || sections.has(sectionId), sections, ids };
}

/** Which sections must be loaded to find the tools an include / exclude pair selects. */
function wantedSections(options: Pick<DiscoverOptions, "include" | "exclude">): Array<[SectionId, string]> {
  const all = Object.entries(SECTION_PACKAGES) as Array<[SectionId, string]>;
  const excluded = options.exclude ? toolSelector(options.exclude) : undefined;
  const catalog = getCoreToolCatalog();
  // a section is skipped only when every tool it can provide is excluded: as a whole section
  const notExcluded = all.filter(([section]) => !excluded?.sections.has(section));
  if (!options.include) return notExcluded;
  const included = toolSelector(options.include);
  // an id the catalog does not know could be any package's extra tool: load every section
  const unknownIds = [...included.ids].some((id) => !catalog.some((meta) => meta.id === id));
  if (unknownIds) return notExcluded;
  return notExcluded.filter(
    ([section]) =>
      included.sections.has(section) ||
      catalog.some((meta) => meta.sectionId === section && included.ids.has(meta.id)),
  );
}

/** The include / exclude pair as one test on a tool. */
function toolFilter(
  options: Pick<DiscoverOptions, "include" | "exclude">,
): (toolId: string, sectionId: string) => boolean {
  const included = options.include ? toolSelector(options.include) : undefined;
  const excluded = options.exclude ? toolSelector(options.exclude) : undefined;
  return (toolId, sectionId) =>
    (!included || included.matches(toolId, sectionId)) && !excluded?.matches(toolId, sectionId);
}

/** Finds which section packages are installed and loads their plugins. */
export async function discoverSections(options: DiscoverOptions = {}): Promise<DiscoveredSection[]> {
  const importer = options.importer ?? ((specifier: string) => import(specifier));
  const found = await Promise.all(
    wantedSections(options).map(async ([section, packageName]): Promise<DiscoveredSection> => {
      const lazy = options.lazy ? lazyFromManifest(section, packageName, importer) : undefined;
      if (lazy) return lazy;
      let mod: unknown;
      try {
        mod = await importer(packageName);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const missing =
          code === "ERR_MODULE_NOT_FOUND" ? "not installed" : `failed to load: ${(error as Error).message}`;
        return { section, packageName, missing };
      }
      const candidate = (mod as { default?: unknown }).default;
      if (isPlugin(candidate)) return { section, packageName, plugin: candidate };
      return { section, packageName, missing: "installed but exports no plugin yet" };
    }),
  );
  for (const entry of found) {
    if (entry.missing) options.onLoadWarning?.(`${entry.section}: ${entry.packageName} ${entry.missing}`);
  }
  return found;
}

/**
 * The section as a lazy plugin when its manifest matches the installed version; "not installed"
 * when the package cannot be resolved; undefined (import it) otherwise.
 */
function lazyFromManifest(
  section: SectionId,
  packageName: string,
  importer: (specifier: string) => Promise<unknown>,
): DiscoveredSection | undefined {
  const manifest = SECTION_MANIFESTS[section];
  if (!manifest) return undefined;
  let version: string;
  try {
    version = installedVersion(packageName);
  } catch {
    return { section, packageName, missing: "not installed" };
  }
  if (version !== manifest.version) return undefined;
  const plugin = lazySectionPlugin(manifest, async () => {
    const candidate = ((await importer(packageName)) as { default?: unknown }).default;
    if (!isPlugin(candidate)) throw new Error(`${packageName} installed but exports no plugin`);
    return candidate;
  });
  return { section, packageName, plugin };
}

/** Registers a section's plugin, then drops the tools include / exclude leave out. */
function registerSection(
  registry: ToolRegistry,
  plugin: ClawtoolsPlugin,
  keep: (toolId: string, sectionId: string) => boolean,
): ToolDiagnostic[] {
  const before = new Set(registry.list().map((meta) => meta.id));
  const diagnostics = registry.registerPlugin(plugin);
  for (const meta of registry.list()) {
    if (!before.has(meta.id) && !keep(meta.id, meta.sectionId)) registry.unregister(meta.id);
  }
  return diagnostics;
}

/**
 * Registers every catalog tool as metadata only (the factory builds nothing), for listings.
 * Synchronous, as the clawtools discovery API has it; use discoverCoreToolsAsync for
 * executable tools.
 */
export function discoverCoreTools(
  registry: ToolRegistry,
  options: Pick<DiscoverOptions, "include" | "exclude"> = {},
): void {
  const keep = toolFilter(options);
  for (const meta of getCoreToolCatalog()) {
    if (!keep(meta.id, meta.sectionId)) continue;
    if (!registry.has(meta.id)) registry.registerFactory(() => null, { ...meta });
  }
}

/** Loads the installed section plugins into the registry; returns what was left out and why. */
export async function discoverCoreToolsAsync(
  registry: ToolRegistry,
  options: DiscoverOptions = {},
): Promise<ToolDiagnostic[]> {
  const diagnostics: ToolDiagnostic[] = [];
  const keep = toolFilter(options);
  for (const found of await discoverSections(options)) {
    if (found.plugin) diagnostics.push(...registerSection(registry, found.plugin, keep));
    else {
      const reason = `${found.packageName} ${found.missing}`;
      for (const meta of getCoreToolCatalog().filter((m) => m.sectionId === found.section)) {
        if (!keep(meta.id, meta.sectionId)) continue;
        diagnostics.push({ toolId: meta.id, reason, message: `${found.section}/${meta.id}: ${reason}` });
      }
    }
  }
  return diagnostics;
}

export interface Clawtools {
  /** The populated registry. */
  tools: ToolRegistry;
  sections: DiscoveredSection[];
  diagnostics: ToolDiagnostic[];
}

export interface CreateClawtoolsOptions extends DiscoverOptions {
  /** Extra plugins (your own) registered after the sections. */
  plugins?: ClawtoolsPlugin[];
}

/** Discovers the installed `@clawtools/*` sections and returns a ready registry. */
export async function createClawtools(options: CreateClawtoolsOptions = {}): Promise<Clawtools> {
  const tools = new ToolRegistry();
  const sections = await discoverSections(options);
  const diagnostics: ToolDiagnostic[] = [];
  const keep = toolFilter(options);
  for (const found of sections)
    if (found.plugin) diagnostics.push(...registerSection(tools, found.plugin, keep));
  for (const plugin of options.plugins ?? []) diagnostics.push(...tools.registerPlugin(plugin));
  return { tools, sections, diagnostics };
}

/** @deprecated createClawtools is already asynchronous; this alias remains for code written against the original clawtools API. */
export const createClawtoolsAsync = createClawtools;

export { getCoreSections, getCoreToolCatalog };
