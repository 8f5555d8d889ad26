import type { EventEmitter } from "node:events";
import type { RunOutcome, RunRegistry, SessionStore } from "./interfaces.js";
import { liveTokens, lostReason, type RunOwner } from "./liveness.js";
import type { SessionsEvents } from "./service-events.js";
import type { RunRecord, RunStatus } from "./types.js";

/** A recorded end as the runner's outcome (to announce it again). */
const ENDED: Partial<Record<RunStatus, RunOutcome["status"]>> = {
  done: "ok",
  failed: "error",
  timeout: "timeout",
};

/** The scope of a pass over the runs whose holder's connection dropped. */
const ORPHANED = Symbol("orphaned");
type Scope = string | undefined | typeof ORPHANED;

export interface ReaperDeps {
  store: SessionStore;
  runs: RunRegistry;
  events: EventEmitter<SessionsEvents>;
  owner: RunOwner;
  staleMs: number;
  announce(run: RunRecord, outcome: RunOutcome, runtimeMs: number): Promise<void>;
}

/**
 * Ends every running run whose owner is gone (`lost`, with the reason) and tells its requester;
 * delivers the announces a crashed process left pending. A pass over the whole registry (the
 * heartbeat's) or over one requester's runs (what a tool shows or counts: its cost is that
 * requester's runs, not the registry's). Passes over one scope are shared; a requester's pass
 * waits for a whole pass under way (which covers it), and a whole pass for the requesters' passes,
 * so no run is ended twice by this process.
 */
export class LostRunReaper {
  private whole: Promise<RunRecord[]> | undefined;
  private readonly scoped = new Map<string, Promise<RunRecord[]>>();
  private orphaned: Promise<RunRecord[]> | undefined;

  constructor(private readonly deps: ReaperDeps) {}

  reap(requesterSessionKey?: string): Promise<RunRecord[]> {
    if (this.whole) return this.whole;
    if (requesterSessionKey === undefined) {
      const pending = [...this.scoped.values(), ...(this.orphaned ? [this.orphaned] : [])];
      // started at once when nothing is pending: a pass reads the registry where it was called
      const pass = pending.length
        ? Promise.allSettled(pending).then(() => this.pass(undefined))
        : this.pass(undefined);
      this.whole = pass.finally(() => {
        this.whole = undefined;
      });
      return this.whole;
    }
    let pass = this.scoped.get(requesterSessionKey);
    if (!pass) {
      pass = this.pass(requesterSessionKey).finally(() => this.scoped.delete(requesterSessionKey));
      this.scoped.set(requesterSessionKey, pass);
    }
    return pass;
  }

  /**
   * A pass over the runs whose holder's connection dropped alone, as a registry with
   * `listOrphaned` lists them (its cost is theirs, not the registry's); a whole pass otherwise.
   * A whole pass under way covers it.
   */
  reapOrphaned(): Promise<RunRecord[]> {
    if (this.whole) return this.whole;
    if (!this.deps.runs.listOrphaned) return this.reap();
    this.orphaned ??= this.pass(ORPHANED).finally(() => {
      this.orphaned = undefined;
    });
    return this.orphaned;
  }

  private async candidates(scope: Scope): Promise<RunRecord[]> {
    const { runs } = this.deps;
    // the ended runs whose announce went out are past judging: a registry that can, leaves them out
    if (scope === undefined) return runs.listUnsettled ? runs.listUnsettled() : runs.list();
    if (scope === ORPHANED) return runs.listOrphaned ? runs.listOrphaned() : runs.list();
    return runs.listByRequester(scope);
  }

  /** `scope`: a requester's session key, the orphaned runs, or undefined for every run. */
  private async pass(scope: Scope): Promise<RunRecord[]> {
    const { runs, store, events, owner, staleMs } = this.deps;
    const ended: RunRecord[] = [];
    const now = Date.now();
    const candidates = await this.candidates(scope);
    // a registry that binds holders to their connections judges its stamped runs itself
    const live = await liveTokens(runs);
    for (const run of candidates) {
      if (run.status !== "running") {
        await this.redeliver(run, now, live);
        continue;
      }
      const reason = lostReason(run, owner, now, staleMs, live);
      if (!reason) continue;
      // another process may be ending it too: only the one that sees it still running goes on
      const current = await runs.get(run.runId);
      if (current?.status !== "running" || lostReason(current, owner, now, staleMs, live) === undefined)
        continue;
      const endedAt = Date.now();
      const error = `lost: ${reason}`;
      const updated = await runs.update(run.runId, { status: "lost", endedAt, outcome: { error } });
      await store.patch(run.childSessionKey, { status: "lost", endedAt }).catch(() => {});
      events.emit("runEnded", updated);
      await this.deps.announce(
        updated,
        { status: "error", error },
        endedAt - (run.startedAt ?? run.createdAt),
      );
      ended.push(updated);
    }
    return ended;
  }

  /**
   * An announce a crashed process left pending (the run ended, the delivery did not finish) is
   * delivered by whichever process finds it; the idempotency key keeps it to one message.
   */
  private async redeliver(run: RunRecord, now: number, live?: ReadonlySet<number>): Promise<void> {
    if (run.announce.status !== "pending" || run.status === "killed" || run.status === "lost") return;
    const { owner, staleMs } = this.deps;
    if (lostReason({ ...run, status: "running" }, owner, now, staleMs, live) === undefined) return;
    const status = ENDED[run.status];
    if (!status) return;
    await this.deps.announce(
      run,
      {
        status,
        ...(run.outcome?.reply ? { reply: run.outcome.reply } : {}),
        ...(run.outcome?.error ? { error: run.outcome.error } : {}),
      },
      (run.endedAt ?? now) - (run.startedAt ?? run.createdAt),
    );
  }
}
