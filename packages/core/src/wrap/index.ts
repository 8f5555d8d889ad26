export * from "./abort.js";
export * from "./before-call.js";
export * from "./error-result.js";
export * from "./hooks.js";
export * from "./loop-detection.js";
export * from "./wrap-tool.js";
