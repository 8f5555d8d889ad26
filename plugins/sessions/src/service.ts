import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { completionMessage } from "./announce.js";
import type { AgentRunner, RunOutcome, RunRegistry, SessionStore } from "./interfaces.js";
import { agentOf } from "./keys.js";
import type { RunRecord, RunStatus, SessionEntry, TranscriptMessage } from "./types.js";

export interface SessionsEvents {
  /** A completion announce landed in the requester's session. */
  announce: [{ run: RunRecord; message: TranscriptMessage }];
  /** A run finished (any status). */
  runEnded: [RunRecord];
}

const STATUS: Record<RunOutcome["status"], RunStatus> = {
  ok: "done",
  error: "failed",
  timeout: "timeout",
  aborted: "killed",
  running: "running",
};
const ANNOUNCE_ATTEMPTS = 4;

/**
 * What the sessions tools share: the store, the run registry and the runner, plus the runs this
 * process is watching. Completion announces are pushed into the requester's session when a run
 * ends (at least once, retried, under an idempotency key), and into its live run when it has one.
 */
export class SessionsService {
  readonly events = new EventEmitter<SessionsEvents>();
  /** Runs this process started, by session key, so a steer or an announce can reach them. */
  private readonly active = new Map<string, string>();
  private readonly watching = new Map<string, Promise<void>>();
  private readonly killed = new Set<string>();
  private readonly admissions = new Map<string, Promise<unknown>>();

  constructor(
    readonly store: SessionStore,
    readonly runs: RunRegistry,
    readonly runner: AgentRunner | undefined,
    private readonly retryDelayMs = 50,
  ) {}

  /** The caller's own session, created on first use (a top-level session has depth 0). */
  async ensure(key: string, agentId = agentOf(key)): Promise<SessionEntry> {
    return (await this.store.get(key)) ?? this.store.create({ key, agentId, depth: 0 });
  }

  activeRun(sessionKey: string): string | undefined {
    return this.active.get(sessionKey);
  }

  /** Starts a run in a session and remembers it as the session's live run. */
  async start(
    sessionKey: string,
    message: string,
    options: { extraSystemPrompt?: string; model?: string; timeoutMs?: number } = {},
  ) {
    if (!this.runner) throw new Error("no agent runner configured");
    const { runId } = await this.runner.start({ sessionKey, message, ...options });
    this.active.set(sessionKey, runId);
    return runId;
  }

  /**
   * Runs `step` alone among the steps admitted for one requester in this process: a burst of
   * spawns checks and takes the children limit one at a time, so the limit holds under load.
   */
  admit<T>(requesterKey: string, step: () => Promise<T>): Promise<T> {
    const previous = this.admissions.get(requesterKey) ?? Promise.resolve();
    const next = previous.then(step, step);
    const tail = next.then(
      () => {},
      () => {},
    );
    this.admissions.set(requesterKey, tail);
    void tail.then(() => {
      if (this.admissions.get(requesterKey) === tail) this.admissions.delete(requesterKey);
    });
    return next;
  }

  /** Follows a sub-agent run to its end, records the outcome and announces it. */
  watch(run: RunRecord): Promise<void> {
    let watching = this.watching.get(run.runId);
    if (!watching) {
      watching = this.follow(run).finally(() => this.watching.delete(run.runId));
      this.watching.set(run.runId, watching);
    }
    return watching;
  }

  private async follow(run: RunRecord): Promise<void> {
    const runner = this.runner!;
    let outcome: RunOutcome;
    do outcome = await runner.wait(run.runId, 60_000);
    while (outcome.status === "running");
    if (this.active.get(run.childSessionKey) === run.runId) this.active.delete(run.childSessionKey);
    if (this.killed.has(run.runId)) return; // kill() recorded it; a killed run is not announced
    const status = STATUS[outcome.status];
    const endedAt = Date.now();
    // the registry and the index are different files: both are written at once
    const [ended] = await Promise.all([
      this.runs.update(run.runId, {
        status,
        endedAt,
        outcome: {
          ...(outcome.reply ? { reply: outcome.reply } : {}),
          ...(outcome.error ? { error: outcome.error } : {}),
        },
      }),
      this.store.patch(run.childSessionKey, { status, endedAt }).catch(() => {}),
    ]);
    this.events.emit("runEnded", ended);
    await this.announce(ended, outcome, endedAt - (ended.startedAt ?? ended.createdAt));
    if (ended.cleanup === "delete") await this.store.delete(run.childSessionKey).catch(() => {});
  }

  /** Delivers the completion event to the requester's session, retrying; never to another session. */
  async announce(run: RunRecord, outcome: RunOutcome, runtimeMs: number): Promise<void> {
    const child = await this.store.get(run.childSessionKey);
    const message = completionMessage(
      run,
      child ?? { key: run.childSessionKey, sessionId: "unknown" },
      outcome,
      runtimeMs,
    );
    let lastError = "";
    for (let attempt = 1; attempt <= ANNOUNCE_ATTEMPTS; attempt++) {
      try {
        await this.ensure(run.requesterSessionKey);
        await this.store.append(run.requesterSessionKey, [message], {
          idempotencyKey: run.announce.idempotencyKey,
        });
        const live = this.active.get(run.requesterSessionKey);
        if (live && this.runner) await this.runner.steer(live, message.content as string).catch(() => false);
        const updated = await this.runs.update(run.runId, {
          announce: { ...run.announce, status: "delivered", attempts: attempt, deliveredAt: Date.now() },
        });
        this.events.emit("announce", { run: updated, message });
        return;
      } catch (error) {
        lastError = (error as Error).message;
        await new Promise((r) => setTimeout(r, this.retryDelayMs * 4 ** (attempt - 1)));
      }
    }
    await this.runs.update(run.runId, {
      announce: { ...run.announce, status: "failed", attempts: ANNOUNCE_ATTEMPTS, lastError },
    });
  }

  /** Kills a run and, first, every run it spawned (and theirs). Returns the runs killed. */
  async kill(runId: string): Promise<RunRecord[]> {
    const run = await this.runs.get(runId);
    if (run?.status !== "running") return [];
    const killed: RunRecord[] = [];
    for (const childRun of await this.runs.listByRequester(run.childSessionKey))
      killed.push(...(await this.kill(childRun.runId)));
    this.killed.add(runId);
    await this.runner?.abort(runId).catch(() => {});
    const updated = await this.runs.update(runId, { status: "killed", endedAt: Date.now() });
    await this.store
      .patch(run.childSessionKey, { status: "killed", endedAt: updated.endedAt })
      .catch(() => {});
    if (this.active.get(run.childSessionKey) === runId) this.active.delete(run.childSessionKey);
    killed.unshift(updated);
    return killed;
  }

  newRun(fields: Omit<RunRecord, "announce" | "status" | "createdAt">): RunRecord {
    return {
      ...fields,
      status: "running",
      createdAt: Date.now(),
      announce: {
        status: "pending",
        attempts: 0,
        idempotencyKey: `announce:${fields.runId}:${randomUUID().slice(0, 8)}`,
      },
    };
  }

  /** Resolves when every run this process watches has ended and been announced (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.watching.size > 0) await Promise.allSettled([...this.watching.values()]);
  }
}
