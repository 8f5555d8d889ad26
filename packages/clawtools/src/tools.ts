// The `clawtools/tools` sub-path: the registry, discovery, schema extraction and the fs bridges.
export { extractToolSchemas, ToolRegistry } from "@clawtools/core";
export { createMemoryBridge, createNodeBridge } from "@clawtools/fs";
export { discoverCoreTools, discoverCoreToolsAsync } from "./discover.js";
