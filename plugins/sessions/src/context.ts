import type { ToolContext } from "@clawtools/core";
import type { SessionsConfig } from "./config.js";
import { mainKey, normalizeKey } from "./keys.js";
import type { SessionsService } from "./service.js";
import type { SessionEntry } from "./types.js";
import { checkVisibility, type SessionAction, type VisibilityPolicy } from "./visibility.js";

/** What every sessions tool knows about its caller and the rules it runs under. */
export interface SessionsEnv {
  service: SessionsService;
  config: SessionsConfig;
  agentId: string;
  /** The calling session's full key. */
  callerKey: string;
  sandboxed: boolean;
  /** Whether the context named the calling session (sessions_yield needs one). */
  hasSession: boolean;
  /** The caller's workspace (spawn attachments are written under it). */
  workspaceDir?: string;
  /** The caller's message channel (named in agent-to-agent context). */
  channel?: string;
  /**
   * No message reaches the caller when a sub-agent finishes (an MCP host: `ctx.laterResults`
   * "pull"); it asks with sessions_yield, which waits for a child's result and returns it.
   */
  pull: boolean;
}

export function sessionsEnv(ctx: ToolContext, service: SessionsService, config: SessionsConfig): SessionsEnv {
  const agentId = ctx.agentId ?? config.defaultAgentId ?? "main";
  const raw = ctx.sessionKey;
  const callerKey = raw?.startsWith("agent:")
    ? raw
    : raw && raw !== "main"
      ? `agent:${agentId}:${raw}`
      : mainKey(agentId);
  return {
    service,
    config,
    agentId,
    callerKey,
    sandboxed: ctx.sandboxed === true,
    hasSession: Boolean(raw?.trim()),
    pull: ctx.laterResults === "pull",
    ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
    ...(ctx.messageChannel ? { channel: ctx.messageChannel } : {}),
  };
}

export const policyOf = (env: SessionsEnv): VisibilityPolicy => ({
  visibility: env.config.visibility ?? "tree",
  sandboxed: env.sandboxed,
  ...(env.config.agentToAgent ? { agentToAgent: env.config.agentToAgent } : {}),
});

export async function byKeyMap(env: SessionsEnv): Promise<Map<string, SessionEntry>> {
  return new Map((await env.service.store.list()).map((e) => [e.key, e]));
}

/** Looks a target up by key, sessionId or alias and checks it is visible; the verdict is returned, not thrown. */
export async function resolveVisible(
  env: SessionsEnv,
  action: SessionAction,
  ref: string,
): Promise<{ entry: SessionEntry } | { status: "forbidden" | "error"; error: string }> {
  const key = normalizeKey(ref, { agentId: env.agentId, current: env.callerKey });
  const entry =
    (await env.service.store.get(key)) ??
    (key === env.callerKey ? await env.service.ensure(key, env.agentId) : undefined) ??
    (await env.service.store.resolve({ sessionId: ref }));
  if (!entry)
    return {
      status: "error",
      error: `Session not found: ${ref.slice(0, 200)} (use the full sessionKey from sessions_list)`,
    };
  const verdict = checkVisibility(
    action,
    { key: env.callerKey, agentId: env.agentId },
    entry,
    policyOf(env),
    await byKeyMap(env),
  );
  if (!verdict.ok) return { status: verdict.status, error: verdict.error };
  return { entry };
}
