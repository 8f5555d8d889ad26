import { EventEmitter } from "node:events";
import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  type SectionConfig,
  type ToolContext,
} from "@clawtools/core";
import { type AgentsConfig, AgentsConfigSchema } from "./config.js";
import { createAgentsListTool } from "./tools/agents-list.js";
import { createUpdatePlanTool, type UpdatePlanDetails } from "./tools/update-plan.js";

export interface PlanEvent extends UpdatePlanDetails {
  /** The session whose plan this is (ctx.sessionKey; `main` when the context names none). */
  sessionKey: string;
  agentId: string;
  updatedAt: number;
}

export interface AgentsEvents {
  /** update_plan recorded a plan. */
  plan: [PlanEvent];
}

export type AgentsPluginOptions = AgentsConfig;

export type AgentsPlugin = ClawtoolsPlugin & {
  /** Subscribe to plan updates: `plugin.events.on("plan", (e) => …)`. */
  readonly events: EventEmitter<AgentsEvents>;
  /** The latest plan of a session, if update_plan ran in it. */
  planFor(sessionKey: string): PlanEvent | undefined;
};

const MAX_PLANS = 1_000;

/** A session's config, the options in code winning key by key, falling back to `config.sessions.allowAgents`. */
function configFor(ctx: ToolContext, section: SectionConfig<AgentsConfig>): AgentsConfig {
  const config = section.read(ctx);
  if (config.allowAgents) return config;
  const sessions = (ctx.config as { sessions?: { allowAgents?: unknown } } | undefined)?.sessions;
  const fallback = sessions?.allowAgents;
  return Array.isArray(fallback) && fallback.every((a) => typeof a === "string")
    ? { ...config, allowAgents: fallback as string[] }
    : config;
}

export function createAgentsPlugin(options: AgentsPluginOptions = {}): AgentsPlugin {
  const events = new EventEmitter<AgentsEvents>();
  const plans = new Map<string, PlanEvent>();
  const requester = (ctx: ToolContext, config: AgentsConfig) =>
    (ctx.agentId ?? config.defaultAgentId ?? "main").trim().toLowerCase();

  return defineSectionPlugin({
    module: import.meta.url,
    config: options,
    description: "Agents: which agents a session may spawn, and the session's task plan",
    section: "agents",
    configSchema: AgentsConfigSchema,
    tools: (section) => [
      {
        name: "agents_list",
        factory: (ctx) => {
          const config = configFor(ctx, section);
          return createAgentsListTool(requester(ctx, config), config);
        },
      },
      {
        name: "update_plan",
        meta: {
          label: "Update plan",
          description: "Record the task plan (steps with pending / in_progress / completed).",
          sectionId: "agents",
          profiles: ["coding"],
          readOnly: true,
        },
        factory: (ctx) => {
          const config = configFor(ctx, section);
          const agentId = requester(ctx, config);
          const sessionKey = ctx.sessionKey?.trim() || "main";
          return createUpdatePlanTool((details) => {
            const event: PlanEvent = { ...details, sessionKey, agentId, updatedAt: Date.now() };
            plans.delete(sessionKey);
            plans.set(sessionKey, event);
            if (plans.size > MAX_PLANS) plans.delete(plans.keys().next().value!);
            events.emit("plan", event);
          });
        },
      },
    ],
    dispose: () => {
      plans.clear();
      events.removeAllListeners();
    },
    members: { events, planFor: (key: string) => plans.get(key) },
  });
}

export const agentsPlugin = createAgentsPlugin();
export default agentsPlugin;
