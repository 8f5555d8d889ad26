import type { SessionEntry } from "./types.js";

export type Visibility = "self" | "tree" | "agent" | "all";
export type SessionAction = "list" | "history" | "send" | "status";

const LABEL: Record<SessionAction, string> = {
  list: "Session list",
  history: "Session history",
  send: "Session send",
  status: "Session status",
};
const A2A_DISABLED: Record<SessionAction, string> = {
  list: "Agent-to-agent listing is disabled. Set sessions.agentToAgent.enabled=true to allow cross-agent access.",
  history:
    "Agent-to-agent history is disabled. Set sessions.agentToAgent.enabled=true to allow cross-agent access.",
  send: "Agent-to-agent messaging is disabled. Set sessions.agentToAgent.enabled=true to allow cross-agent sends.",
  status:
    "Agent-to-agent status is disabled. Set sessions.agentToAgent.enabled=true to allow cross-agent access.",
};

export interface VisibilityPolicy {
  visibility: Visibility;
  /** A sandboxed caller sees at most its own tree. */
  sandboxed?: boolean;
  agentToAgent?: { enabled?: boolean; allow?: string[] };
}

/** Looks a session up by key (a Map, or the entries a caller has loaded so far). */
export type SessionLookup = Pick<
  ReadonlyMap<string, Pick<SessionEntry, "key" | "spawnedBy"> | undefined>,
  "get"
>;

export type VisibilityVerdict = { ok: true } | { ok: false; status: "forbidden"; error: string };

const globMatch = (pattern: string, value: string) =>
  pattern === "*" ||
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  ).test(value);

/** Whether `key` is the caller's session or one it spawned, directly or through its children. */
export function inTree(
  callerKey: string,
  target: Pick<SessionEntry, "key" | "spawnedBy">,
  byKey: SessionLookup,
): boolean {
  let current: Pick<SessionEntry, "key" | "spawnedBy"> | undefined = target;
  for (let hops = 0; current && hops < 64; hops++) {
    if (current.key === callerKey) return true;
    current = current.spawnedBy ? byKey.get(current.spawnedBy) : undefined;
  }
  return false;
}

/**
 * The one visibility rule every sessions tool applies (OpenClaw's `sessions-access.ts`): self,
 * tree, agent or all, a sandboxed caller clamped to its tree, and cross-agent access only with
 * `all` plus the agent-to-agent switch and allow list. Pure: the same inputs, the same answer.
 */
export function checkVisibility(
  action: SessionAction,
  caller: { key: string; agentId: string },
  target: Pick<SessionEntry, "key" | "agentId" | "spawnedBy">,
  policy: VisibilityPolicy,
  byKey: SessionLookup,
): VisibilityVerdict {
  const visibility: Visibility =
    policy.sandboxed && (policy.visibility === "agent" || policy.visibility === "all")
      ? "tree"
      : policy.visibility;
  const deny = (error: string): VisibilityVerdict => ({ ok: false, status: "forbidden", error });
  if (target.key === caller.key) return { ok: true };
  // a sandboxed session sees only the sessions it spawned (OpenClaw's own message)
  if (policy.sandboxed && visibility !== "self" && !inTree(caller.key, target, byKey))
    return deny(
      action === "send"
        ? "Session not visible from this sandboxed agent session."
        : `Session not visible from this sandboxed agent session: ${target.key}`,
    );
  if (visibility === "self")
    return deny(
      `${LABEL[action]} visibility is restricted to the current session (sessions.visibility=self).`,
    );
  // the sessions a session spawned (and theirs) are visible from every wider setting too
  if (inTree(caller.key, target, byKey)) return { ok: true };
  if (visibility === "tree")
    return deny(
      `${LABEL[action]} visibility is restricted to the current session tree (sessions.visibility=tree).`,
    );
  if (target.agentId === caller.agentId) return { ok: true };
  if (visibility !== "all")
    return deny(
      `${LABEL[action]} visibility is restricted. Set sessions.visibility=all to allow cross-agent access.`,
    );
  if (!policy.agentToAgent?.enabled) return deny(A2A_DISABLED[action]);
  const allow = policy.agentToAgent.allow ?? ["*"];
  if (!allow.some((p) => globMatch(p, target.agentId)))
    return deny(
      `Agent-to-agent ${action === "send" ? "messaging" : action} denied by sessions.agentToAgent.allow.`,
    );
  return { ok: true };
}
