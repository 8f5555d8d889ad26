// The `clawtools/tools` sub-path: the registry, discovery, schema extraction and the fs bridges.
export { ToolRegistry } from "@clawtools/core";
export { extractToolSchemas } from "@clawtools/core/providers";
export { createMemoryBridge, createNodeBridge } from "@clawtools/fs";
export { discoverCoreTools, discoverCoreToolsAsync } from "./discover.js";
