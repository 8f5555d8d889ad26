import { EventEmitter } from "node:events";
import { type AnnounceDeps, deliverAnnounce, type RunEnd } from "./announce-delivery.js";
import { OneAtATime } from "./admissions.js";
import { every } from "./every.js";
import type { AgentRunner, RunOutcome, RunRegistry, SessionStore, StartRunRequest } from "./interfaces.js";
import { agentOf } from "./keys.js";
import {
  DEFAULT_ABORT_CHECK_MS,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_KILL_WAIT_MS,
  DEFAULT_LOST_CHECK_MS,
  type LivenessOptions,
  liveTokens,
  newOwner,
  period,
  type RunOwner,
} from "./liveness.js";
import { heldElsewhere, requestRemoteKill } from "./remote-kill.js";
import { LostRunReaper } from "./reaper.js";
import { newRunRecord } from "./run-record.js";
import { type SessionsEvents, STATUS, YIELD_RESUMED } from "./service-events.js";
import { answerSteerRequest } from "./remote-steer.js";
import type { RunRecord, SessionEntry } from "./types.js";

export type { SessionsEvents } from "./service-events.js";
export { YIELD_RESUMED } from "./service-events.js";

/**
 * What the sessions tools share: the store, the run registry and the runner, plus the runs this
 * process is watching. Completion announces are pushed into the requester's session when a run
 * ends (at least once, retried, under an idempotency key), and into its live run when it has one.
 */
export class SessionsService {
  readonly events = new EventEmitter<SessionsEvents>();
  /** When this service started: a host's sessions_yield collects only the runs spawned since. */
  readonly startedAt = Date.now();
  /** Runs this process started, by session key, so a steer or an announce can reach them. */
  private readonly active = new Map<string, string>();
  private readonly watching = new Map<string, Promise<void>>();
  private readonly killed = new Set<string>();
  private readonly admissions = new OneAtATime();
  /** This service as the owner of the runs it starts (liveness lives in the run registry). */
  readonly owner: RunOwner;
  private readonly heartbeatMs: number;
  readonly staleMs: number;
  readonly killWaitMs: number;
  /** Stops the heartbeat and the check for kills asked by other processes. */
  private readonly stopTimers: Array<() => void>;
  private readonly reaper: LostRunReaper;
  private readonly announceDeps: AnnounceDeps;
  /** Sessions that yielded, waiting for an announce to start their next turn. */
  private readonly wakers = new Map<string, (runId: string | undefined) => void>();
  /** A yielded sub-agent's current runner run, by its record's run id (kill aborts that one). */
  private readonly continued = new Map<string, string>();

  constructor(
    readonly store: SessionStore,
    readonly runs: RunRegistry,
    readonly runner: AgentRunner | undefined,
    retryDelayMs = 50,
    liveness: LivenessOptions = {},
  ) {
    this.owner = liveness.owner ? { ...liveness.owner } : newOwner();
    this.heartbeatMs = period(liveness, "heartbeatMs", DEFAULT_HEARTBEAT_MS);
    this.staleMs = period(liveness, "staleMs", this.heartbeatMs * 6);
    this.killWaitMs = period(liveness, "killWaitMs", DEFAULT_KILL_WAIT_MS);
    const abortCheckMs = period(liveness, "abortCheckMs", DEFAULT_ABORT_CHECK_MS);
    this.announceDeps = {
      store,
      runs,
      events: this.events,
      retryDelayMs,
      ensure: (key) => this.ensure(key),
      reachRequester: async (key, text) => {
        const live = this.active.get(key);
        if (live && this.runner) await this.runner.steer(live, text).catch(() => false);
        else await this.wake(key).catch(() => {});
      },
    };
    this.reaper = new LostRunReaper({
      store,
      runs,
      events: this.events,
      owner: this.owner,
      staleMs: this.staleMs,
      announce: (run, outcome, runtimeMs) => this.announce(run, outcome, runtimeMs),
    });
    // at start, and then every heartbeat: runs whose owner is gone are ended as lost
    void this.reapLost().catch(() => {});
    this.stopTimers = [
      every(this.heartbeatMs, () => this.beat()),
      every(abortCheckMs, () => this.answerAbortRequests()),
    ];
    // a registry that binds holders to their connections says at once when one dropped
    if (runs.liveness) {
      const lostCheckMs = period(liveness, "lostCheckMs", DEFAULT_LOST_CHECK_MS);
      this.stopTimers.push(every(lostCheckMs, () => this.reapOrphaned()));
    }
  }

  /** Ends the runs whose holder's connection dropped, when the registry says there are any. */
  private async reapOrphaned(): Promise<void> {
    if (((await this.runs.liveness?.())?.orphaned ?? 0) > 0) await this.reaper.reapOrphaned();
  }

  /**
   * Kills or steers the runs it holds as another process asked (`abortRequest`, `steerRequest`);
   * stops the runner of a run it follows that ended lost (its connection to the registry dropped).
   */
  private async answerAbortRequests(): Promise<void> {
    for (const runId of [...this.watching.keys()]) {
      const run = await this.runs.get(runId);
      if (run?.status === "lost") await this.stopLost(run);
      else if (run?.status === "running" && run.abortRequest && this.owns(run)) await this.kill(runId);
      else if (run) await answerSteerRequest(this.runs, run, this.owner, this.runner, this.continued);
    }
  }

  /** A run this service follows ended lost: its runner stops, and nothing more is recorded or announced. */
  private async stopLost(run: RunRecord): Promise<void> {
    if (!this.watching.has(run.runId) || this.killed.has(run.runId)) return;
    this.killed.add(run.runId);
    await this.runner?.abort(this.continued.get(run.runId) ?? run.runId).catch(() => {});
    this.wakers.get(run.childSessionKey)?.(undefined);
    this.wakers.delete(run.childSessionKey);
  }

  /** Whether this service holds the run (started it and follows it). */
  owns(run: RunRecord): boolean {
    return run.owner?.instance === this.owner.instance;
  }

  /** Records that the runs this service follows are alive, then ends the runs whose owner is gone. */
  private async beat(): Promise<void> {
    const now = Date.now();
    await Promise.all(
      [...this.watching.keys()].map((runId) => this.runs.update(runId, { heartbeatAt: now }).catch(() => {})),
    );
    await this.reapLost();
  }

  /**
   * Ends every running run whose owner is gone (`lost`, with the reason) and tells its requester;
   * with a requester, only that session's runs (what a tool shows or counts). A run held by a live
   * process, this one or another, is never touched. Returns the runs it ended.
   */
  reapLost(requesterSessionKey?: string): Promise<RunRecord[]> {
    return this.reaper.reap(requesterSessionKey);
  }

  /**
   * After a yield in `sessionKey` (a turn that started at `since`): resolves with the run id of the
   * session's next turn, started by the next announce that lands there, or at once when a child's
   * result arrived during the yielded turn; undefined when no child runs and none arrived.
   */
  private async awaitWake(sessionKey: string, since: number): Promise<string | undefined> {
    if (this.active.get(sessionKey)) this.active.delete(sessionKey);
    // the waker is in place before the children are read, so no announce falls between the two
    const woken = new Promise<string | undefined>((resolve) => this.wakers.set(sessionKey, resolve));
    const children = await this.runs.listByRequester(sessionKey);
    if (!this.wakers.has(sessionKey) || children.some((r) => r.status === "running")) return woken;
    this.wakers.delete(sessionKey);
    if (children.some((r) => (r.announce.deliveredAt ?? 0) >= since))
      return this.start(sessionKey, YIELD_RESUMED);
    return undefined;
  }

  /** Starts the next turn of a session that yielded, when an announce arrives for it. */
  private async wake(sessionKey: string): Promise<void> {
    const resolve = this.wakers.get(sessionKey);
    if (!resolve || this.active.get(sessionKey)) return;
    this.wakers.delete(sessionKey);
    resolve(await this.start(sessionKey, YIELD_RESUMED));
  }

  /** Stops the heartbeat (the plugin's dispose). */
  close(): void {
    for (const stop of this.stopTimers) stop();
  }

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
    options: Omit<StartRunRequest, "sessionKey" | "message"> = {},
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
    return this.admissions.run(requesterKey, step);
  }

  /**
   * Follows a sub-agent run to its end, records the outcome and announces it. Given `recorded`
   * (the run's record being written), it follows the run at once, and a run that ends before its
   * record is in is announced only once it is (never when that write fails).
   */
  watch(run: RunRecord, recorded?: Promise<unknown>): Promise<void> {
    let watching = this.watching.get(run.runId);
    if (!watching) {
      watching = this.follow(run, recorded).finally(() => this.watching.delete(run.runId));
      this.watching.set(run.runId, watching);
    }
    return watching;
  }

  private async follow(run: RunRecord, recorded?: Promise<unknown>): Promise<void> {
    const runner = this.runner!;
    let outcome: RunOutcome;
    let current = run.runId;
    let turnStartedAt = run.startedAt ?? run.createdAt;
    for (;;) {
      do outcome = await runner.wait(current, 60_000);
      while (outcome.status === "running");
      // a sub-agent that yielded waits for its own children: their announce starts its next turn
      if (!outcome.yielded || this.killed.has(run.runId)) break;
      const next = await this.awaitWake(run.childSessionKey, turnStartedAt);
      if (!next) break; // nothing left to wait for: the yielded turn is its answer
      turnStartedAt = Date.now();
      current = next;
      this.continued.set(run.runId, next);
    }
    this.continued.delete(run.runId);
    if (this.active.get(run.childSessionKey) === current) this.active.delete(run.childSessionKey);
    // kill() recorded it; a killed run is not announced
    if (this.killed.delete(run.runId)) return;
    const status = STATUS[outcome.status];
    const endedAt = Date.now();
    const end: RunEnd = {
      status,
      endedAt,
      outcome: {
        ...(outcome.reply ? { reply: outcome.reply } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
      },
    };
    // the child's status goes into the index while the announce is delivered (another file);
    // the run's end goes into the registry with the announce's state, in one write
    const childPatched = this.store.patch(run.childSessionKey, { status, endedAt }).catch(() => {});
    try {
      await this.announce(run, outcome, endedAt - (run.startedAt ?? run.createdAt), end, recorded);
    } catch (error) {
      // a registry that fenced this late end off (the run ended lost meanwhile) has the last word
      const lost = await this.runs.get(run.runId).catch(() => undefined);
      if (lost?.status !== "lost") throw error;
      await childPatched;
      await this.store
        .patch(run.childSessionKey, { status: "lost", endedAt: lost.endedAt ?? endedAt })
        .catch(() => {});
      return;
    }
    await childPatched;
    if (run.cleanup === "delete") await this.store.delete(run.childSessionKey).catch(() => {});
  }

  /** Delivers the completion event to the requester's session (see `deliverAnnounce`). */
  announce(
    run: RunRecord,
    outcome: RunOutcome,
    runtimeMs: number,
    end?: RunEnd,
    recorded?: Promise<unknown>,
  ): Promise<void> {
    return deliverAnnounce(this.announceDeps, run, outcome, runtimeMs, end, recorded);
  }

  /**
   * Kills a run and, first, every run it spawned (and theirs). Returns the runs killed, the run
   * itself first. A run another live process holds is killed by that process, asked through the
   * registry: then the first record is the run as it stands once that process ended it, or, if it
   * did not within `killWaitMs`, still `running`.
   */
  async kill(runId: string): Promise<RunRecord[]> {
    const run = await this.runs.get(runId);
    if (run?.status !== "running") return [];
    const killed: RunRecord[] = [];
    for (const childRun of await this.runs.listByRequester(run.childSessionKey))
      killed.push(...(await this.kill(childRun.runId)));
    if (heldElsewhere(run, this.owner, Date.now(), this.staleMs, await liveTokens(this.runs))) {
      const answer = await requestRemoteKill(this.runs, run, this.owner, {
        waitMs: this.killWaitMs,
        staleMs: this.staleMs,
      });
      // a holder that died meanwhile answers nothing: the run is ended here
      if ("run" in answer) return [answer.run, ...killed];
    }
    // only a run this service follows is marked (follow() reads and forgets the mark)
    if (this.watching.has(runId)) this.killed.add(runId);
    await this.runner?.abort(this.continued.get(runId) ?? runId).catch(() => {});
    // a yielded run waiting for its children's results waits no more
    this.wakers.get(run.childSessionKey)?.(undefined);
    this.wakers.delete(run.childSessionKey);
    // the session first: a process waiting on the registry for this kill then finds both ended
    const endedAt = Date.now();
    await this.store.patch(run.childSessionKey, { status: "killed", endedAt }).catch(() => {});
    const updated = await this.runs.update(runId, { status: "killed", endedAt });
    if (this.active.get(run.childSessionKey) === runId) this.active.delete(run.childSessionKey);
    killed.unshift(updated);
    return killed;
  }

  /** A new run record, held by this service, its announce pending. */
  newRun(fields: Omit<RunRecord, "announce" | "status" | "createdAt">): RunRecord {
    return newRunRecord(this.owner, fields);
  }

  /** Resolves when every run this process watches has ended and been announced (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.watching.size > 0) await Promise.allSettled([...this.watching.values()]);
  }
}
