export * from "./glob.js";
export * from "./groups.js";
export * from "./match.js";
export * from "./normalize.js";
export * from "./owner-only.js";
export * from "./pipeline.js";
export * from "./sandbox.js";
export * from "./subagent.js";
