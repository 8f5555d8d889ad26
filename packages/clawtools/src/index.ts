// core's main entry (the tool contract, plugins, the registry, createToolset), plus what the
// clawtools API (spec/002) gives from here: the catalog queries and schema extraction
export * from "@clawtools/core";
export * from "@clawtools/core/catalog";
export { extractToolSchemas } from "@clawtools/core/providers";
export { createMemoryBridge, createNodeBridge } from "@clawtools/fs";
export {
  type Clawtools,
  type CreateClawtoolsOptions,
  createClawtools,
  createClawtoolsAsync,
  type DiscoveredSection,
  type DiscoverOptions,
  discoverCoreTools,
  discoverCoreToolsAsync,
  discoverSections,
  SECTION_PACKAGES,
} from "./discover.js";
export { isLazySectionPlugin, type LazySectionPlugin, lazySectionPlugin } from "./lazy.js";
export type { RegistrationManifest, SectionManifest } from "./manifest.js";
export { SECTION_MANIFESTS, SECTIONS_WITH_STATE } from "./manifests/index.js";
export * from "./compose/index.js";
