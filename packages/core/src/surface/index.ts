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
export { type CodeLimits, DEFAULT_CODE_LIMITS } from "./code-limits.js";
export type {
  CodeSandbox,
  CodeSandboxProgram,
  CodeSandboxRun,
  CodeSandboxStep,
} from "./code-sandbox.js";
export {
  CODE_EXEC_TOOL,
  CODE_WAIT_TOOL,
  type CodeSurfaceOptions,
  createCodeSurface,
  MAX_SUSPENDED_RUNS,
} from "./code-surface.js";
export {
  type SurfaceableToolset,
  type SurfaceView,
  TOOL_SURFACES,
  type ToolSurface,
  type ToolSurfaceOptions,
  withToolSurface,
} from "./toolset.js";
