import type { RunStatus, SessionEntry, TranscriptMessage } from "@clawtools/core/contracts";

/** A session row as `sessions.list` / `sessions.describe` answer it (the fields read here). */
export interface GatewaySessionRow {
  key: string;
  sessionId?: string;
  agentId?: string;
  createdAt?: number;
  updatedAt?: number;
  label?: string;
  spawnDepth?: number;
  spawnedBy?: string;
  parentSessionKey?: string;
  modelProvider?: string;
  model?: string;
  modelOverrideSource?: string | null;
  channel?: string;
  lastChannel?: string;
  status?: string;
  startedAt?: number;
  endedAt?: number;
  totalTokens?: number;
  [key: string]: unknown;
}

const RUN_STATUSES = new Set<RunStatus>(["running", "done", "failed", "killed", "timeout", "lost"]);
// the Gateway's names for a run's end that clawtools spells otherwise
const STATUS_ALIASES: Record<string, RunStatus> = { error: "failed", aborted: "killed", ok: "done" };

const agentOfKey = (key: string) => (key.startsWith("agent:") ? key.split(":")[1] : undefined);

/**
 * A Gateway session row as a clawtools SessionEntry. The model is the session's own override only
 * (the Gateway also reports the default it resolved, which is not the session's choice). The
 * parent is kept only for spawned sessions: the Gateway names `agent:<id>:main` as the parent of
 * every session an operator creates, which is not a spawn lineage.
 */
export function toSessionEntry(row: GatewaySessionRow): SessionEntry {
  const depth = typeof row.spawnDepth === "number" ? row.spawnDepth : 0;
  const entry: SessionEntry = {
    key: row.key,
    sessionId: row.sessionId ?? "",
    agentId: row.agentId ?? agentOfKey(row.key) ?? "main",
    createdAt: row.createdAt ?? row.updatedAt ?? 0,
    // 9.6 stamps a new row's updatedAt a few ms before its createdAt: an entry is never updated before it exists
    updatedAt: Math.max(row.updatedAt ?? 0, row.createdAt ?? 0),
    depth,
  };
  if (row.label) entry.label = row.label;
  if (depth > 0 || row.spawnedBy) {
    const parent = row.spawnedBy ?? row.parentSessionKey;
    if (parent) {
      entry.spawnedBy = parent;
      entry.parentSessionKey = row.parentSessionKey ?? parent;
    }
  }
  if (row.model && row.modelOverrideSource && row.modelOverrideSource !== "default")
    entry.model = row.modelProvider ? `${row.modelProvider}/${row.model}` : row.model;
  const channel = row.channel ?? row.lastChannel;
  if (typeof channel === "string" && channel) entry.channel = channel;
  if (row.status) {
    const status = RUN_STATUSES.has(row.status as RunStatus)
      ? (row.status as RunStatus)
      : STATUS_ALIASES[row.status];
    if (status) entry.status = status;
  }
  if (typeof row.startedAt === "number") entry.startedAt = row.startedAt;
  if (typeof row.endedAt === "number") entry.endedAt = row.endedAt;
  if (typeof row.totalTokens === "number") entry.totalTokens = row.totalTokens;
  return entry;
}

const ROLES = new Set(["user", "assistant", "toolResult"]);

/**
 * `chat.history`'s messages as transcript messages: pi's shape already, minus the Gateway's own
 * bookkeeping (`__openclaw`). Messages of a role the transcript type does not have are left out.
 */
export function toTranscript(messages: unknown): TranscriptMessage[] {
  if (!Array.isArray(messages)) return [];
  const out: TranscriptMessage[] = [];
  for (const raw of messages) {
    if (!raw || typeof raw !== "object") continue;
    const { __openclaw: _bookkeeping, ...message } = raw as Record<string, unknown>;
    if (!ROLES.has(message.role as string)) continue;
    out.push({
      ...message,
      content: (message.content ?? "") as TranscriptMessage["content"],
      timestamp: typeof message.timestamp === "number" ? message.timestamp : 0,
    } as TranscriptMessage);
  }
  return out;
}

/** The text of an assistant message `chat.inject` can write, or the reason it cannot. */
export function injectableText(message: TranscriptMessage): { text: string } | { refused: string } {
  if (message.role !== "assistant")
    return { refused: `it writes assistant messages only, not ${JSON.stringify(message.role)}` };
  if (message.internal) return { refused: "it cannot mark a message as internal (a completion announce)" };
  if (typeof message.content === "string")
    return message.content ? { text: message.content } : { refused: "the message is empty" };
  const texts: string[] = [];
  for (const block of message.content) {
    if (block.type !== "text") return { refused: `it writes text only, not a ${block.type} block` };
    texts.push(block.text);
  }
  const text = texts.join("\n");
  return text ? { text } : { refused: "the message is empty" };
}
