/** A content block of a transcript message (pi's format: text, image, thinking, tool calls). */
export type MessageBlock =
  | { type: "text"; text: string }
  | { type: "image"; data?: string; mimeType?: string; omitted?: boolean; bytes?: number }
  | { type: "thinking"; thinking: string; thinkingSignature?: string }
  | { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

/** One message of a session, in pi-ai's shape (user, assistant or toolResult), plus where it came from. */
export interface TranscriptMessage {
  role: "user" | "assistant" | "toolResult";
  content: string | MessageBlock[];
  timestamp: number;
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  model?: string;
  provider?: string;
  stopReason?: string;
  usage?: Record<string, unknown>;
  /** Set on messages the sessions layer writes itself (completion announces). */
  internal?: { kind: "completion"; runId: string };
  [key: string]: unknown;
}

/** `lost`: the process that held the run went away before it ended (see `RunRecord.owner`). */
export type RunStatus = "running" | "done" | "failed" | "killed" | "timeout" | "lost";

/** One entry of the session index (OpenClaw's SessionEntry, the fields the tools use). */
export interface SessionEntry {
  key: string;
  sessionId: string;
  agentId: string;
  createdAt: number;
  updatedAt: number;
  label?: string;
  spawnedBy?: string;
  parentSessionKey?: string;
  /** Spawn depth: 0 for a top-level session. */
  depth?: number;
  /** The session's own model override (`session_status model=…`). */
  model?: string;
  channel?: string;
  status?: RunStatus;
  startedAt?: number;
  endedAt?: number;
  totalTokens?: number;
}

export interface AnnounceState {
  status: "pending" | "delivered" | "failed";
  attempts: number;
  idempotencyKey: string;
  deliveredAt?: number;
  lastError?: string;
}

/** A sub-agent run (OpenClaw's SubagentRunRecord). */
export interface RunRecord {
  runId: string;
  childSessionKey: string;
  requesterSessionKey: string;
  task: string;
  label?: string;
  model?: string;
  cleanup: "delete" | "keep";
  depth: number;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  status: RunStatus;
  outcome?: { reply?: string; error?: string };
  announce: AnnounceState;
  /** The process holding the run while it runs (liveness is kept in the store, not in a process). */
  owner?: { pid: number; instance: string; host: string };
  /** When the owner last said the run is alive. */
  heartbeatAt?: number;
}
