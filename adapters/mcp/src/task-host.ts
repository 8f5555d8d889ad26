import { randomUUID } from "node:crypto";
import { backgroundClock, type Clock, delay } from "@clawtools/core/time";
import {
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_TTL_MS,
  isTerminalTask,
  newTaskOwner,
  type TaskError,
  type TaskRecord,
  type TaskStore,
  taskExpired,
  taskLostReason,
} from "@clawtools/core/tasks";

export interface TaskHostOptions {
  /** Where tasks live (`fileTaskStore(<state dir>/tasks)`, or PostgreSQL's). */
  store: TaskStore;
  /** A task whose owner sent no heartbeat for this long ends failed (default 30 s). */
  leaseMs?: number;
  /** How long a task is kept from its creation when the client asks nothing else (default 1 h). */
  ttlMs?: number;
  /** The longest ttl a client may ask for (default 24 h). */
  maxTtlMs?: number;
  /** The poll interval clients are told (default 500 ms). */
  pollIntervalMs?: number;
  /** How often this process looks at the tasks it runs for cancels and answers from elsewhere (default 1 s). */
  checkMs?: number;
  clock?: Clock;
  log?: (message: string) => void;
}

/** How a task's run ended: the tool's result (completed), or a protocol error (failed). */
export type TaskOutcome = { result: Record<string, unknown> } | { error: TaskError };

/** What a running task can do besides running: wait for the client's input. */
export interface TaskControl {
  taskId: string;
  signal: AbortSignal;
  /** Parks the task input_required with these requests; resolves with the answers, by key. */
  ask(requests: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface StartTask {
  tool: string;
  scope: string;
  ttlMs?: number;
  /** Told of every status change this process makes or sees (status notifications). */
  onStatus?: (task: TaskRecord) => void;
}

interface Running {
  controller: AbortController;
  waiters: Map<string, (answer: unknown) => void>;
  onStatus?: ((task: TaskRecord) => void) | undefined;
}

const STOPPED: TaskError = { code: -32603, message: "Task failed: the server that ran it stopped first" };

/**
 * Runs tool calls as MCP tasks kept in a `TaskStore`, so any process on the same store answers
 * for them: a task is durable before its id is returned; its owner records a heartbeat and picks up
 * cancels and input answers other processes wrote; a task whose owner died ends failed with the
 * reason (at once for a dead process of this machine, after `leaseMs` otherwise); ended tasks are
 * dropped once past their ttl.
 */
export class TaskHost {
  readonly owner: TaskRecord["owner"] = newTaskOwner();
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  private readonly ttlMs: number;
  private readonly maxTtlMs: number;
  private readonly checkMs: number;
  private readonly clock: Clock;
  private readonly running = new Map<string, Running>();
  private timer: unknown;
  private ticks = 0;
  private closed = false;

  constructor(private readonly options: TaskHostOptions) {
    this.leaseMs = positive(options.leaseMs, DEFAULT_TASK_LEASE_MS, "leaseMs");
    this.ttlMs = positive(options.ttlMs, DEFAULT_TASK_TTL_MS, "ttlMs");
    this.maxTtlMs = positive(options.maxTtlMs, 24 * 3_600_000, "maxTtlMs");
    this.pollIntervalMs = positive(options.pollIntervalMs, 500, "pollIntervalMs");
    this.checkMs = Math.min(positive(options.checkMs, 1_000, "checkMs"), this.leaseMs / 3);
    this.clock = options.clock ?? backgroundClock;
  }

  get store(): TaskStore {
    return this.options.store;
  }

  /** Creates the task (durably), starts `run`, and returns the task as created. */
  async start(init: StartTask, run: (control: TaskControl) => Promise<TaskOutcome>): Promise<TaskRecord> {
    if (this.closed) throw new Error("the task host is closed");
    const now = this.clock.now();
    const requested = init.ttlMs !== undefined && init.ttlMs > 0 ? Math.floor(init.ttlMs) : this.ttlMs;
    const task: TaskRecord = {
      taskId: randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: Math.min(requested, this.maxTtlMs),
      pollIntervalMs: this.pollIntervalMs,
      scope: init.scope,
      tool: init.tool,
      owner: this.owner,
      heartbeatAt: now,
    };
    await this.store.create(task);
    const entry: Running = { controller: new AbortController(), waiters: new Map(), onStatus: init.onStatus };
    this.running.set(task.taskId, entry);
    this.schedule();
    const control: TaskControl = {
      taskId: task.taskId,
      signal: entry.controller.signal,
      ask: (requests) => this.ask(task.taskId, entry, requests),
    };
    void Promise.resolve()
      .then(() => run(control))
      .then(
        (outcome) => this.finish(task.taskId, outcome),
        (error: unknown) =>
          this.finish(task.taskId, {
            error: { code: -32603, message: error instanceof Error ? error.message : String(error) },
          }),
      )
      .catch((error: unknown) => this.options.log?.(`task ${task.taskId}: ${String(error)}`))
      .finally(() => {
        this.running.delete(task.taskId);
        for (const resolve of entry.waiters.values()) resolve(undefined);
      });
    return task;
  }

  /** The task as it stands (a lost one failed first), or undefined when unknown or expired. */
  async get(taskId: string): Promise<TaskRecord | undefined> {
    const task = await this.store.get(taskId);
    if (!task) return undefined;
    const now = this.clock.now();
    if (taskExpired(task, now)) {
      await this.store.delete(taskId);
      return undefined;
    }
    if (!taskLostReason(task, this.owner, now, this.leaseMs)) return task;
    return this.store.update(taskId, (t) => {
      const reason = taskLostReason(t, this.owner, this.clock.now(), this.leaseMs);
      if (!reason) return undefined;
      return this.ended(t, "failed", { error: { code: -32603, message: `Task failed: ${reason}` } });
    });
  }

  /** Every live task of `scope`. */
  async list(scope: string): Promise<TaskRecord[]> {
    const tasks = await this.store.list();
    const mine = tasks.filter((t) => t.scope === scope).map((t) => this.get(t.taskId));
    return (await Promise.all(mine)).filter((t): t is TaskRecord => t !== undefined);
  }

  /** Cancels a task that is not over (any process's); resolves with it, or undefined when unknown. */
  async cancel(taskId: string): Promise<TaskRecord | undefined> {
    const known = await this.get(taskId);
    if (!known) return undefined;
    const task = await this.store.update(taskId, (t) =>
      isTerminalTask(t) ? undefined : { ...this.ended(t, "cancelled", {}), cancelRequested: true },
    );
    const entry = this.running.get(taskId);
    if (task?.status === "cancelled" && entry) {
      entry.controller.abort(new DOMException("Task cancelled by the client", "AbortError"));
      entry.onStatus?.(task);
    }
    return task;
  }

  /** Delivers answers to a task's pending input requests (keys it does not wait for are ignored). */
  async answer(taskId: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined> {
    const task = await this.store.update(taskId, (t) => {
      const pending = { ...(t.inputRequests ?? {}) };
      const taken = Object.keys(responses).filter((key) => key in pending);
      if (isTerminalTask(t) || taken.length === 0) return undefined;
      for (const key of taken) delete pending[key];
      const inputResponses = { ...(t.inputResponses ?? {}) };
      for (const key of taken) inputResponses[key] = responses[key];
      const left = Object.keys(pending).length > 0;
      return {
        ...t,
        status: left ? "input_required" : "working",
        inputRequests: left ? pending : undefined,
        inputResponses,
        lastUpdatedAt: this.clock.now(),
      };
    });
    if (task && this.running.has(taskId)) await this.collect(taskId);
    return task;
  }

  /** Waits until the task is over (polling the store), or undefined when it is unknown. */
  async waitEnded(taskId: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    for (;;) {
      const task = await this.get(taskId);
      if (!task || isTerminalTask(task)) return task;
      await delay(Math.min(task.pollIntervalMs, 200), { signal, clock: this.clock });
    }
  }

  /** Stops: tasks this process runs end failed (their runs aborted); nothing is scheduled after. */
  async close(): Promise<void> {
    this.closed = true;
    this.clock.clearTimeout(this.timer);
    const ids = [...this.running.keys()];
    await Promise.all(
      ids.map((id) =>
        this.store
          .update(id, (t) => (isTerminalTask(t) ? undefined : this.ended(t, "failed", { error: STOPPED })))
          .catch(() => undefined),
      ),
    );
    for (const entry of this.running.values())
      entry.controller.abort(new DOMException("The server stopped", "AbortError"));
    await this.store.close?.();
  }

  private ended(
    task: TaskRecord,
    status: "completed" | "failed" | "cancelled",
    extra: Partial<TaskRecord>,
  ): TaskRecord {
    const { inputRequests: _r, inputResponses: _a, ...rest } = task;
    // a task that did not complete says why in its status message too
    const statusMessage =
      status === "failed"
        ? extra.error?.message
        : status === "cancelled"
          ? "Cancelled by the client"
          : undefined;
    return {
      ...rest,
      ...extra,
      status,
      ...(statusMessage ? { statusMessage } : {}),
      lastUpdatedAt: this.clock.now(),
    };
  }

  private async finish(taskId: string, outcome: TaskOutcome): Promise<void> {
    const task = await this.store.update(taskId, (t) =>
      isTerminalTask(t)
        ? undefined
        : "result" in outcome
          ? this.ended(t, "completed", { result: outcome.result })
          : this.ended(t, "failed", { error: outcome.error }),
    );
    if (task) this.running.get(taskId)?.onStatus?.(task);
  }

  private async ask(
    taskId: string,
    entry: Running,
    requests: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const keys = Object.keys(requests);
    const answers = keys.map(
      (key) => new Promise<[string, unknown]>((resolve) => entry.waiters.set(key, (a) => resolve([key, a]))),
    );
    const task = await this.store.update(taskId, (t) =>
      isTerminalTask(t)
        ? undefined
        : {
            ...t,
            status: "input_required",
            inputRequests: { ...(t.inputRequests ?? {}), ...requests },
            lastUpdatedAt: this.clock.now(),
          },
    );
    if (task) entry.onStatus?.(task);
    return Object.fromEntries(await Promise.all(answers));
  }

  /** Takes the answers stored for a task this process runs and hands them to its waiters. */
  private async collect(taskId: string): Promise<void> {
    const entry = this.running.get(taskId);
    if (!entry) return;
    let taken: Record<string, unknown> = {};
    const task = await this.store.update(taskId, (t) => {
      if (!t.inputResponses) return undefined;
      taken = t.inputResponses;
      return { ...t, inputResponses: undefined };
    });
    for (const [key, answer] of Object.entries(taken)) {
      entry.waiters.get(key)?.(answer);
      entry.waiters.delete(key);
    }
    if (task && Object.keys(taken).length > 0) entry.onStatus?.(task);
  }

  private schedule(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.tick().finally(() => {
        if (this.running.size > 0 || this.ticks % 60 !== 0) this.schedule();
      });
    }, this.checkMs);
  }

  /** The owner's round: heartbeat, cancels and answers from other processes, and the sweep. */
  private async tick(): Promise<void> {
    this.ticks += 1;
    const now = this.clock.now();
    for (const [taskId, entry] of this.running) {
      const task = await this.store
        .update(taskId, (t) =>
          isTerminalTask(t) || now - t.heartbeatAt < this.leaseMs / 3
            ? undefined
            : { ...t, heartbeatAt: now },
        )
        .catch(() => undefined);
      if (!task) continue;
      if (task.status === "cancelled" || task.cancelRequested) {
        entry.controller.abort(new DOMException("Task cancelled by the client", "AbortError"));
        entry.onStatus?.(task);
      } else if (task.inputResponses) await this.collect(taskId);
    }
    // the sweep of expired tasks, about once a minute
    if (this.ticks % Math.max(1, Math.round(60_000 / this.checkMs)) === 1) {
      const all = await this.store.list().catch(() => []);
      for (const task of all) if (taskExpired(task, now)) await this.store.delete(task.taskId);
    }
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    throw new Error(`task host: ${name} must be a positive number of milliseconds (got ${String(value)})`);
  return v;
}
