export { type AgentsConfig, AgentsConfigSchema } from "./config.js";
export {
  type AgentsEvents,
  type AgentsPlugin,
  type AgentsPluginOptions,
  agentsPlugin,
  agentsPlugin as default,
  createAgentsPlugin,
  type PlanEvent,
} from "./plugin.js";
export {
  type AgentsListDetails,
  type AgentsListEntry,
  createAgentsListTool,
  listAgents,
} from "./tools/agents-list.js";
export {
  createUpdatePlanTool,
  PLAN_STATUSES,
  type PlanStatus,
  type PlanStep,
  planAck,
  type UpdatePlanDetails,
  validatePlan,
} from "./tools/update-plan.js";
