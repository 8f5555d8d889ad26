export * from "./claude-code-names.js";
export * from "./definitions.js";
export * from "./gemini.js";
export * from "./input-schema.js";
export * from "./normalize.js";
export * from "./openai-strict.js";
