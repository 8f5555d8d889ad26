// @clawtools/core/policy: which tools a call may use. Names and aliases, groups, allow / deny /
// alsoAllow, owner-only, the ordered pipeline, and the sandbox and sub-agent rules.
export { expandToolGroups, type PolicyToolMeta } from "./groups.js";
export {
  compileToolPolicy,
  filterToolsByPolicy,
  isToolAllowedByPolicies,
  isToolAllowedByPolicy,
  mergeAlsoAllow,
  type ToolPolicyMatcher,
} from "./match.js";
export { normalizeToolList, normalizeToolName, TOOL_NAME_ALIASES } from "./normalize.js";
export {
  applyOwnerOnlyToolPolicy,
  guardOwnerOnlyTool,
  isOwnerOnlyTool,
  OWNER_ONLY_TOOL_NAMES,
} from "./owner-only.js";
export {
  applyToolPolicyPipeline,
  type ApplyToolPolicyPipelineParams,
  resetPolicyWarnings,
  type ToolPolicyPipelineStep,
} from "./pipeline.js";
export { DEFAULT_SANDBOX_TOOL_POLICY, resolveSandboxToolPolicy } from "./sandbox.js";
export {
  resolveSubagentToolPolicy,
  SUBAGENT_TOOL_DENY_ALWAYS,
  SUBAGENT_TOOL_DENY_LEAF,
  type SubagentPolicyInput,
} from "./subagent.js";
