import type { SessionEntry } from "../types.js";

/** An agent id as a directory name: OpenClaw's agent ids (upper case tolerated), never a path. */
const AGENT_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A session id as a file name: a UUID or any plain name, never a path. */
const SESSION_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 80));

/** The id, when it can name a directory under the state dir; throws naming it otherwise. */
export function checkAgentId(agentId: unknown): string {
  if (typeof agentId !== "string" || !AGENT_SEGMENT.test(agentId))
    throw new Error(
      `Invalid agent id ${shown(agentId)} in a session key or store: expected [A-Za-z0-9][A-Za-z0-9_-]{0,63}`,
    );
  return agentId;
}

/** The id, when it can name a transcript file; throws naming it otherwise. */
export function checkSessionId(sessionId: unknown): string {
  if (typeof sessionId !== "string" || !SESSION_SEGMENT.test(sessionId))
    throw new Error(
      `Invalid sessionId ${shown(sessionId)} in the session store: expected a plain name [A-Za-z0-9._-]`,
    );
  return sessionId;
}

/** Whether an index entry read back from the store may be used under `key` in `agentId`'s index. */
export function validEntry(entry: unknown, key: string, agentId: string): entry is SessionEntry {
  if (typeof entry !== "object" || entry === null) return false;
  const e = entry as Partial<SessionEntry>;
  return (
    e.key === key &&
    e.agentId === agentId &&
    typeof e.sessionId === "string" &&
    SESSION_SEGMENT.test(e.sessionId) &&
    typeof e.updatedAt === "number" &&
    typeof e.createdAt === "number"
  );
}
