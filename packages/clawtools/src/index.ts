export * from "@clawtools/core";
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
