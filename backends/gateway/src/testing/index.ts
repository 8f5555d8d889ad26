export { findOpenclaw, OPENCLAW_VERSION, type OpenclawInstall } from "./openclaw-install.js";
export { freePort, type OpenclawProcess, type RealGateway, startRealGateway } from "./real-gateway.js";
export {
  chatCompletionsProblems,
  type FakeModelReply,
  type FakeModelRequest,
  type FakeModelResponder,
  type FakeOpenAiModel,
  fakeModelConfig,
  fakeProvider,
  startFakeOpenAiModel,
} from "./openai-fake.js";
export {
  type ConnectAnswer,
  type LoopbackGateway,
  type LoopbackGatewayOptions,
  startLoopbackGateway,
} from "./loopback-gateway.js";
export {
  type GatewayBroker,
  type GatewayProfile,
  type GatewayProfileSetup,
  startGatewayBroker,
} from "./gateway-broker.js";
export { type LeaseOptions, leaseGateway, type SharedGateway } from "./gateway-lease.js";
export type { ModelSlot } from "./model-slot.js";
