export type {
  CodeSandbox,
  SandboxFailureCode,
  SandboxLimits,
  SandboxOutput,
  SandboxProgram,
  SandboxRequest,
  SandboxRun,
  SandboxSettlement,
  SandboxStep,
} from "./protocol.js";
export { createQuickJsSandbox, WORKER_GRACE_MS } from "./quickjs-sandbox.js";
