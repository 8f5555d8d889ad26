export {
  type CompleteTextOptions,
  completeText,
  isModelCallError,
  ModelCallError,
  modelFailure,
} from "./complete.js";
export {
  envStem,
  KNOWN_PROVIDERS,
  knownProvider,
  type ProviderEndpoint,
  providerKeyVariables,
} from "./providers.js";
export {
  isModelConfigError,
  ModelConfigError,
  type ModelSpec,
  parseModelName,
  type ResolvedModel,
  registerProviderKeys,
  resolveModel,
  type WireApi,
  withModel,
} from "./resolve.js";
