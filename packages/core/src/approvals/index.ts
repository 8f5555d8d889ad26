// @clawtools/core/approvals: asking the operator before a tool acts, and remembering the answer.
export { ambientApprovalHandler, runWithApprovalHandler } from "./ambient.js";
export {
  type ApprovalOutcome,
  type AskApprovalOptions,
  askApproval,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  type ToolApprovalHandler,
  type ToolApprovalRequest,
} from "./ask.js";
export { ApprovalGate, type ApprovalGateOptions, type ApprovalGateOutcome } from "./gate.js";
export { APPROVALS_FILE, ApprovalMemory } from "./memory.js";
export { visibleText } from "./visible.js";
