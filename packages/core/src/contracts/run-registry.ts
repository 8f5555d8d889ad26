/** `lost`: the process that held the run went away before it ended (see `RunRecord.owner`). */
export type RunStatus = "running" | "done" | "failed" | "killed" | "timeout" | "lost";

/** Who holds a run: the process (pid, host) and the service instance inside it. */
export interface RunOwner {
  pid: number;
  /** One per sessions service: a restarted process (or a reused pid) is another owner. */
  instance: string;
  host: string;
  /**
   * The holder's liveness token in a registry that binds liveness to a connection (PostgreSQL:
   * its store's member epoch), stamped by that registry when the run is recorded.
   */
  epoch?: number;
}

/** What a registry that binds its holders' liveness to their connections knows now (`RunRegistry.liveness`). */
export interface HolderLiveness {
  /** The live tokens: a run whose `owner.epoch` is not among them has lost its holder, on any machine. */
  live: ReadonlySet<number>;
  /** How many running runs are held under a token that is not live (ended `lost` by the next reap). */
  orphaned: number;
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
  owner?: RunOwner;
  /** When the owner last said the run is alive. */
  heartbeatAt?: number;
  /**
   * A kill asked for by a process that does not hold the run (`subagents kill` elsewhere). It is
   * written with `update`, which every registry merges without losing a field; the owner reads it
   * on its next check and aborts the run, which then ends `killed`.
   */
  abortRequest?: { at: number; by: RunOwner };
  /**
   * A message another process asked to steer into the run (`subagents steer` elsewhere); the
   * owner steers it in on its next check and writes the request's id to `steerAck`.
   */
  steerRequest?: { id: string; at: number; by: RunOwner; message: string };
  /** The id of the last `steerRequest` the owner steered into the run. */
  steerAck?: string;
  /** When a client that is not pushed to (an MCP host) took the run's result with `sessions_yield`. */
  collectedAt?: number;
}

/** Sub-agent runs. */
export interface RunRegistry {
  record(run: RunRecord): Promise<void>;
  update(runId: string, patch: Partial<Omit<RunRecord, "runId">>): Promise<RunRecord>;
  get(runId: string): Promise<RunRecord | undefined>;
  listByRequester(requesterSessionKey: string): Promise<RunRecord[]>;
  list(): Promise<RunRecord[]>;
  /**
   * Optional: the newest run whose child session is `childSessionKey`, for a registry indexed by
   * child (a listing then looks up its page's runs without reading their siblings).
   */
  latestByChild?(childSessionKey: string): Promise<RunRecord | undefined>;
  /**
   * Optional: for a registry that binds each holder's liveness to its connection (the holder's
   * death drops it), which tokens are live and how many running runs lost theirs; one cheap read,
   * so a service may ask every second. A run stamped with an `owner.epoch` is then alive exactly
   * while that token is live, whatever machine holds it: no pid or heartbeat is consulted.
   */
  liveness?(): Promise<HolderLiveness>;
  /**
   * Optional, with `liveness`: the runs still marked running whose holder's token is no longer
   * live, oldest first, read through an index of running runs by holder (what a reap triggered by
   * `liveness().orphaned` reads, instead of every run the registry holds).
   */
  listOrphaned?(): Promise<RunRecord[]>;
  /**
   * Optional: the runs a whole liveness pass judges, oldest first: those still running and those
   * whose announce is still pending (`status === "running" || announce.status === "pending"`).
   * Without it a pass reads every run, and a registry's ended runs only grow.
   */
  listUnsettled?(): Promise<RunRecord[]>;
}
