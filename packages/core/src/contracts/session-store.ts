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

/** Where a page of `SessionStore.listPage` ended: the last entry's update time and key. */
export interface SessionCursor {
  updatedAt: number;
  key: string;
}

/** One page of sessions; `next` is where the following page starts, absent after the last. */
export interface SessionPage {
  entries: SessionEntry[];
  next?: SessionCursor;
}

/**
 * Sessions and their transcripts. Every method is async and addresses sessions by key, so a
 * PostgreSQL, Redis or OpenClaw-Gateway store implements it without changing the tools; none
 * assumes one process or one file.
 */
export interface SessionStore {
  list(filter?: { agentId?: string; updatedSince?: number }): Promise<SessionEntry[]>;
  /**
   * Optional: `limit` sessions newest first (equal update times by key, ascending), starting after
   * `after`. A store implements it when a page costs what the page costs, not what the store holds
   * (an ordered index, LIMIT with a keyset); callers fall back to `list` without it.
   */
  listPage?(query: {
    agentId?: string;
    updatedSince?: number;
    limit: number;
    after?: SessionCursor;
  }): Promise<SessionPage>;
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
