import type { ToolPolicy } from "../catalog.js";
import { normalizeToolList } from "./normalize.js";

/** Denied to every sub-agent. */
export const SUBAGENT_TOOL_DENY_ALWAYS: readonly string[] = [
  "gateway",
  "agents_list",
  "whatsapp_login",
  "session_status",
  "cron",
  "sessions_send",
];

/** Additionally denied to leaf sub-agents (depth ≥ maxSpawnDepth), which may not spawn. */
export const SUBAGENT_TOOL_DENY_LEAF: readonly string[] = [
  "subagents",
  "sessions_list",
  "sessions_history",
  "sessions_spawn",
];

export interface SubagentPolicyInput {
  /** Depth of this sub-agent (1 = spawned by a main agent). */
  depth: number;
  /** Default 1, so default sub-agents are leaves. */
  maxSpawnDepth?: number;
  /** `tools.subagents.tools`: allow / alsoAllow remove entries from the built-in deny; deny appends. */
  config?: ToolPolicy;
}

/** The sub-agent step of the policy pipeline; undefined for a main agent (depth 0). */
export function resolveSubagentToolPolicy(input: SubagentPolicyInput): ToolPolicy | undefined {
  if (input.depth <= 0) return undefined;
  const leaf = input.depth >= (input.maxSpawnDepth ?? 1);
  const released = new Set(
    normalizeToolList([...(input.config?.allow ?? []), ...(input.config?.alsoAllow ?? [])]),
  );
  const deny = [...SUBAGENT_TOOL_DENY_ALWAYS, ...(leaf ? SUBAGENT_TOOL_DENY_LEAF : [])].filter(
    (name) => !released.has(name),
  );
  // With both `allow` and `alsoAllow` the allowlist is their union (OpenClaw's
  // `mergeConfiguredSubagentAllow`); `alsoAllow` alone never restricts.
  const allow = input.config?.allow
    ? [...new Set([...input.config.allow, ...(input.config.alsoAllow ?? [])])]
    : undefined;
  return {
    ...(allow ? { allow } : {}),
    deny: [...deny, ...normalizeToolList(input.config?.deny)],
  };
}
