/** Session keys: `agent:<agentId>:<rest>`; the main session is `agent:<id>:main` (`main` and `current` are aliases). */
export const mainKey = (agentId: string) => `agent:${agentId}:main`;

export const AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The agent a key belongs to (`agent:<id>:…`), else the fallback. */
export function agentOf(key: string, fallback = "main"): string {
  const m = /^agent:([^:]+):/.exec(key);
  return m ? m[1]! : fallback;
}

/** Turns what a caller wrote (`main`, `current`, a full key) into a full key. */
export function normalizeKey(key: string, ctx: { agentId: string; current: string }): string {
  const k = key.trim();
  if (k === "main") return mainKey(ctx.agentId);
  if (k === "current") return ctx.current;
  return k;
}

export type SessionKind = "main" | "cron" | "hook" | "node" | "group" | "other";

/** OpenClaw's kind classification (`sessions-helpers.ts`). */
export function kindOf(key: string, agentId: string): SessionKind {
  if (key === mainKey(agentId) || key === "main") return "main";
  const rest = key.replace(/^agent:[^:]+:/, "");
  if (rest.startsWith("cron:")) return "cron";
  if (rest.startsWith("hook:")) return "hook";
  if (rest.startsWith("node-") || rest.startsWith("node:")) return "node";
  if (key.includes(":group:") || key.includes(":channel:")) return "group";
  return "other";
}

export const isSubagentKey = (key: string) => /^agent:[^:]+:subagent:/.test(key);
