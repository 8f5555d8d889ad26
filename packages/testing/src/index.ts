export {
  type ContractReport,
  checkPluginContract,
  checkToolContract,
  type ToolContractOptions,
} from "./contract.js";
export {
  type ConformanceOptions,
  type RunRegistryUnderTest,
  runRegistryConformance,
  type SessionStoreConformanceOptions,
  type SessionStoreStep,
  type SessionStoreUnderTest,
  sessionStoreConformance,
} from "./sessions-conformance.js";
export {
  type PagedSessionStoreUnderTest,
  type SessionPageCursor,
  sessionStorePagingConformance,
} from "./session-paging-conformance.js";
export { type LivenessHostUnderTest, runLivenessConformance } from "./sessions-liveness.js";
export {
  runRegistryTwoInstanceConformance,
  sessionStoreTwoInstanceConformance,
} from "./sessions-two-instances.js";
export {
  type FsBridgeContainment,
  type FsBridgeUnderTest,
  fsBridgeConformance,
} from "./fs-bridge-conformance.js";
export {
  type BackgroundProcessUnderTest,
  type ConformanceExit,
  type ConformanceSpawnOptions,
  localPidAlive,
  type ProcessHostUnderTest,
  processHostConformance,
} from "./process-host-conformance.js";
export {
  CONFORMANCE_MESSAGE_ACTIONS,
  type ChannelConformanceOptions,
  type ChannelStep,
  type ChannelUnderTest,
  type ChannelUnderTestSetup,
  type ConformanceMessageRequest,
  channelConformance,
  type DeliveredMessage,
} from "./channel-conformance.js";
export {
  type NodeHostConformanceOptions,
  type NodeHostUnderTest,
  nodeHostConformance,
} from "./node-host-conformance.js";
export {
  BROWSER_CONFORMANCE_SITE,
  type BrowserDriverUnderTest,
  type BrowserDriverUnderTestSetup,
  browserConformanceHtml,
  browserDriverConformance,
  type ConformancePage,
} from "./browser-driver-conformance.js";
export {
  type SpeechProviderUnderTest,
  type SpeechProviderUnderTestSetup,
  speechProviderConformance,
  sniffSpeechFormat,
} from "./speech-provider-conformance.js";
export {
  SEARCH_CONFORMANCE_HITS,
  type SearchFarSideMode,
  type SearchProviderUnderTest,
  type SearchProviderUnderTestSetup,
  searchProviderConformance,
} from "./search-provider-conformance.js";
export {
  type CronStoreConformanceOptions,
  type CronStoreTwoInstanceOptions,
  cronStoreConformance,
  cronStoreSteps,
  sampleCronJob,
} from "./cron-store-conformance.js";
export {
  sampleTask,
  type TaskStoreConformanceOptions,
  taskStoreConformance,
  taskStoreSteps,
} from "./task-store-conformance.js";
export {
  cronStoreTwoInstanceChecks,
  leaderLeaseTwoInstanceCheck,
} from "./cron-store-two-instances.js";
export {
  type ConformanceEmbedder,
  type ConformanceMemoryChanges,
  type ConformanceMemoryHit,
  conformanceEmbedder,
  type MemoryBackendConformanceOptions,
  type MemoryBackendUnderTest,
  type MemoryBackendUnderTestSetup,
  memoryBackendConformance,
  memoryFile,
} from "./memory-backend-conformance.js";
export {
  type AgentRunnerConformanceOptions,
  type AgentRunnerUnderTest,
  type AgentRunnerUnderTestSetup,
  agentRunnerConformance,
  type RunnerStep,
} from "./agent-runner-conformance.js";
export {
  type ConformanceModel,
  type ConformanceReply,
  type ConformanceTurn,
  ScriptedConformanceModel,
} from "./agent-runner-model.js";
export {
  findOpenclawReference,
  OPENCLAW_REFERENCE_VERSION,
  type OpenclawReference,
  runOpenclawReference,
} from "./openclaw-reference.js";
