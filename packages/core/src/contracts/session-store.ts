import type { RunStatus } from "./run-registry.js";
import type { TranscriptMessage } from "./transcript.js";

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

/**
 * Sessions and their transcripts. Every method is async and addresses sessions by key, so a
 * PostgreSQL, Redis or OpenClaw-Gateway store implements it without changing the tools; none
 * assumes one process or one file.
 */
export interface SessionStore {
  list(filter?: { agentId?: string; updatedSince?: number }): Promise<SessionEntry[]>;
  get(key: string): Promise<SessionEntry | undefined>;
  /** By key, sessionId or label (labels are looked up within `agentId` when given). */
  resolve(ref: {
    key?: string;
    sessionId?: string;
    label?: string;
    agentId?: string;
  }): Promise<SessionEntry | undefined>;
  /** Creates the session, or returns the existing one with the same key. */
  create(
    entry: Omit<SessionEntry, "sessionId" | "createdAt" | "updatedAt"> & { sessionId?: string },
  ): Promise<SessionEntry>;
  patch(key: string, patch: Partial<Omit<SessionEntry, "key" | "sessionId">>): Promise<SessionEntry>;
  delete(key: string): Promise<boolean>;
  /**
   * Appends messages. With an idempotency key, a second append under the same key (a retried
   * delivery) is a no-op that returns false.
   */
  append(key: string, messages: TranscriptMessage[], options?: { idempotencyKey?: string }): Promise<boolean>;
  /**
   * The newest `limit` messages, oldest first, read from the end (a long transcript costs what
   * its tail costs); `maxBytes` stops once that much has been read.
   */
  history(key: string, options?: { limit?: number; maxBytes?: number }): Promise<TranscriptMessage[]>;
}
