export * from "./catalog.js";
export * from "./errors.js";
export * from "./params.js";
export * from "./plugin.js";
export * from "./policy/index.js";
export * from "./registry.js";
export * from "./results.js";
export * from "./schema.js";
export type * from "./tool.js";
