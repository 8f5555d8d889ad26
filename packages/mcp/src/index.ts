export { type ImportMcpToolsOptions, importMcpTools } from "./import.js";
export { type CreateMcpServerOptions, createMcpServer, type McpToolsetLike, toMcpTool } from "./server.js";
