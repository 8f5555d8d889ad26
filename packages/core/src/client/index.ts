// @clawtools/core/client: the client of the current tool call (served over MCP): log, elicit,
// sample, list roots, and what it declared.
export { currentClient, requireClient, runWithClient } from "./ambient.js";
export type {
  ClientAskOptions,
  ClientCapability,
  ClientChannel,
  ClientLogLevel,
  ClientRoot,
  ElicitAnswer,
  ElicitForm,
  SamplingAnswer,
  SamplingMessage,
  SamplingRequest,
} from "./channel.js";
export { ClientCapabilityError, isClientCapabilityError, MISSING_CLIENT_CAPABILITY_CODE } from "./errors.js";
