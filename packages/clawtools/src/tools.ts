// The `clawtools/tools` sub-path of spec/002.
export { extractToolSchemas, ToolRegistry } from "@clawtools/core";
export { createMemoryBridge, createNodeBridge } from "@clawtools/fs";
export { discoverCoreTools, discoverCoreToolsAsync } from "./discover.js";
