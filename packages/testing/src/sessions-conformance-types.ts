// The shapes the sessions conformance suites are written against: stores, registries, runs, options.

export type Role = "user" | "assistant" | "toolResult";

export interface ConformanceSession {
  key: string;
  sessionId: string;
  agentId: string;
  createdAt: number;
  updatedAt: number;
  label?: string;
  model?: string;
  spawnedBy?: string;
  depth?: number;
}

export interface ConformanceMessage {
  role: Role;
  content: unknown;
  timestamp: number;
}

/** What `SessionStore` of @clawtools/sessions promises (structurally). */
export interface SessionStoreUnderTest {
  list(filter?: { agentId?: string; updatedSince?: number }): Promise<ConformanceSession[]>;
  get(key: string): Promise<ConformanceSession | undefined>;
  resolve(ref: {
    key?: string;
    sessionId?: string;
    label?: string;
    agentId?: string;
  }): Promise<ConformanceSession | undefined>;
  create(entry: {
    key: string;
    agentId: string;
    label?: string;
    spawnedBy?: string;
    depth?: number;
  }): Promise<ConformanceSession>;
  patch(key: string, patch: { label?: string; model?: string }): Promise<ConformanceSession>;
  delete(key: string): Promise<boolean>;
  append(key: string, messages: never[], options?: { idempotencyKey?: string }): Promise<boolean>;
  history(key: string, options?: { limit?: number; maxBytes?: number }): Promise<ConformanceMessage[]>;
}

export interface ConformanceRun {
  runId: string;
  childSessionKey: string;
  requesterSessionKey: string;
  task: string;
  cleanup: "delete" | "keep";
  depth: number;
  createdAt: number;
  status: "running" | "done" | "failed" | "killed" | "timeout" | "lost";
  label?: string;
  endedAt?: number;
  announce: { status: "pending" | "delivered" | "failed"; attempts: number; idempotencyKey: string };
}

/** What `RunRegistry` of @clawtools/sessions promises (structurally). */
export interface RunRegistryUnderTest {
  record(run: never): Promise<void>;
  update(runId: string, patch: never): Promise<ConformanceRun>;
  get(runId: string): Promise<ConformanceRun | undefined>;
  listByRequester(requesterSessionKey: string): Promise<ConformanceRun[]>;
  list(): Promise<ConformanceRun[]>;
}

export interface ConformanceOptions {
  /** The describe block's name (default: the interface's). */
  name?: string;
}

/** Makes a new, empty instance for each test. */
export type Factory<T> = () => T | Promise<T>;
