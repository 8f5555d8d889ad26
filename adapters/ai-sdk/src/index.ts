export { toModelMessages, stepMessages } from "./messages.js";
export { type AiSdkRunnerOptions, createAiSdkRunner, type RunTools } from "./runner.js";
export {
  ClawtoolsToolError,
  isClawtoolsToolError,
  type ToAiSdkToolsOptions,
  toAiSdkTools,
  toModelOutput,
} from "./tools.js";
