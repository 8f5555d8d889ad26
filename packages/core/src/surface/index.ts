export { type CatalogEntry, type CatalogSource, classifyTool, SURFACE_TOOL_NAMES } from "./catalog.js";
export { inputSignature } from "./signature.js";
export {
  createSearchSurface,
  DESCRIBE_TOOL,
  DISPATCH_ALIAS,
  DISPATCH_TOOL,
  MAX_DIRECTORY_CHARS,
  MAX_SEARCH_ANSWER_CHARS,
  SEARCH_TOOL,
  type SearchSurfaceOptions,
  type SurfaceCatalog,
} from "./search-surface.js";
export { DEFAULT_SEARCH_LIMITS, type SearchLimits } from "./search-request.js";
export {
  type SurfaceableToolset,
  type SurfaceView,
  TOOL_SURFACES,
  type ToolSurface,
  withToolSurface,
} from "./toolset.js";
