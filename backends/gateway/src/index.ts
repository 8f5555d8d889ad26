export {
  DEFAULT_SCOPES,
  GatewayClient,
  type GatewayClientOptions,
  type HelloOk,
  isStartingAnswer,
} from "./client.js";
export {
  createDeviceIdentity,
  type DeviceIdentity,
  deviceAuthPayloadV3,
  loadOrCreateDeviceIdentity,
  signDevice,
} from "./device-identity.js";
export { GatewayError, isGatewayError } from "./errors.js";
export { type EventFrame, PROTOCOL_VERSION, parseFrame, type ResponseFrame } from "./frames.js";
export { GatewayNodeHost, type GatewayNodeHostOptions } from "./node-host.js";
export { type CronPage, GatewayCron } from "./cron.js";
export { GatewayChannel, type GatewayChannelOptions } from "./channel.js";
export { GatewaySessionStore } from "./session-store.js";
export { type GatewaySessionRow, toSessionEntry, toTranscript } from "./session-entry.js";
export { GatewayAgentRunner, type GatewayAgentRunnerOptions } from "./agent-runner.js";
export { type ConnectRetryOptions, connectWithRetry } from "./connect-retry.js";
