export { type CompleteTextOptions, completeText, ModelCallError } from "./complete.js";
export {
  ModelConfigError,
  type ModelSpec,
  type ResolvedModel,
  resolveModel,
  type WireApi,
} from "./resolve.js";
