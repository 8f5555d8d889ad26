import {
  type ClawtoolsPlugin,
  getCoreToolCatalog,
  getCoreSections,
  type SectionId,
  type ToolDiagnostic,
  ToolRegistry,
} from "@clawtools/core";

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
  /** Only these sections. */
  include?: SectionId[];
  /** Never these sections. */
  exclude?: SectionId[];
  /** Resolves a package name to its module (tests, bundlers); default is dynamic import. */
  importer?: (specifier: string) => Promise<unknown>;
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

/** Finds which section packages are installed and loads their plugins. */
export async function discoverSections(options: DiscoverOptions = {}): Promise<DiscoveredSection[]> {
  const importer = options.importer ?? ((specifier: string) => import(specifier));
  const wanted = (Object.entries(SECTION_PACKAGES) as Array<[SectionId, string]>).filter(
    ([section]) =>
      (!options.include || options.include.includes(section)) && !options.exclude?.includes(section),
  );
  return Promise.all(
    wanted.map(async ([section, packageName]): Promise<DiscoveredSection> => {
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
}

/**
 * Registers every catalog tool as metadata only (the factory builds nothing), for listings.
 * Synchronous, as spec/002 describes; use discoverCoreToolsAsync for executable tools.
 */
export function discoverCoreTools(
  registry: ToolRegistry,
  options: Pick<DiscoverOptions, "include" | "exclude"> = {},
): void {
  for (const meta of getCoreToolCatalog()) {
    const section = meta.sectionId as SectionId;
    if (options.include && !options.include.includes(section)) continue;
    if (options.exclude?.includes(section)) continue;
    if (!registry.has(meta.id)) registry.registerFactory(() => null, { ...meta });
  }
}

/** Loads the installed section plugins into the registry; returns what was left out and why. */
export async function discoverCoreToolsAsync(
  registry: ToolRegistry,
  options: DiscoverOptions = {},
): Promise<ToolDiagnostic[]> {
  const diagnostics: ToolDiagnostic[] = [];
  for (const found of await discoverSections(options)) {
    if (found.plugin) diagnostics.push(...registry.registerPlugin(found.plugin));
    else {
      const reason = `${found.packageName} ${found.missing}`;
      for (const meta of getCoreToolCatalog().filter((m) => m.sectionId === found.section)) {
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
  for (const found of sections) if (found.plugin) diagnostics.push(...tools.registerPlugin(found.plugin));
  for (const plugin of options.plugins ?? []) diagnostics.push(...tools.registerPlugin(plugin));
  return { tools, sections, diagnostics };
}

/** @deprecated createClawtools is already asynchronous; this alias remains for spec/002 code. */
export const createClawtoolsAsync = createClawtools;

export { getCoreSections, getCoreToolCatalog };
