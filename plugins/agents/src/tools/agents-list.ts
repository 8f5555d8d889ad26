import { type AgentTool, jsonResult, Type } from "@clawtools/core";
import type { AgentsConfig } from "../config.js";

export const agentsListSchema = Type.Object({}, { additionalProperties: false });

export interface AgentsListEntry {
  id: string;
  name?: string;
  /** Whether the agent is in `config.agents.list`. */
  configured: boolean;
}

export interface AgentsListDetails {
  requester: string;
  allowAny: boolean;
  agents: AgentsListEntry[];
}

const normalize = (id: string) => id.trim().toLowerCase();

/**
 * The agents a session may target with sessions_spawn (OpenClaw's agents_list): itself, plus
 * `allowAgents`, or every configured agent when it holds `*`. The requester comes first, the
 * others sorted by id.
 */
export function listAgents(requester: string, config: AgentsConfig): AgentsListDetails {
  const configured = new Map((config.list ?? []).map((a) => [normalize(a.id), a]));
  const allow = (config.allowAgents ?? []).map((a) => a.trim()).filter(Boolean);
  const allowAny = allow.includes("*");
  const ids = new Set<string>(allowAny ? configured.keys() : allow.map(normalize));
  ids.delete(requester);
  const entry = (id: string): AgentsListEntry => {
    const name = configured.get(id)?.name;
    return { id, ...(name ? { name } : {}), configured: configured.has(id) };
  };
  return { requester, allowAny, agents: [entry(requester), ...[...ids].sort().map(entry)] };
}

export function createAgentsListTool(
  requester: string,
  config: AgentsConfig,
): AgentTool<typeof agentsListSchema, AgentsListDetails> {
  return {
    name: "agents_list",
    label: "List agents",
    description: "List the agent ids this session may target with sessions_spawn (agentId).",
    parameters: agentsListSchema,
    async execute() {
      return jsonResult(listAgents(requester, config));
    },
  };
}
