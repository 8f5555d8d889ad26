export { findOpenclaw, OPENCLAW_VERSION, type OpenclawInstall } from "./openclaw-install.js";
export { freePort, type OpenclawProcess, type RealGateway, startRealGateway } from "./real-gateway.js";
export {
  chatCompletionsProblems,
  type FakeModelRequest,
  type FakeOpenAiModel,
  fakeModelConfig,
  startFakeOpenAiModel,
} from "./openai-fake.js";
