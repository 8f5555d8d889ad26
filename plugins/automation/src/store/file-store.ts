import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { withFileLock, withWriteLock } from "@clawtools/core/safety";
import type { CronStore } from "../cron/interfaces.js";
import type { CronJob, CronJobState, CronRunLogEntry, Page } from "../cron/types.js";
import { HOST, type JobLease, type JobsDoc, leaseLive } from "./jobs-file.js";
import { JobsView } from "./jobs-view.js";
import { RUN_LOG_KEEP_LINES, RUN_LOG_MAX_BYTES, RunLogs } from "./run-log.js";

export { JOURNAL_MIN_BYTES } from "./jobs-view.js";
export { RUN_LOG_KEEP_LINES, RUN_LOG_MAX_BYTES } from "./run-log.js";

export interface FileCronStoreOptions {
  /** Pruning bounds of each run log (defaults: 2 MB, 2,000 lines). */
  runLogMaxBytes?: number;
  runLogKeepLines?: number;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

interface Change {
  apply: (doc: JobsDoc) => unknown;
  sync: boolean;
  /** Written as a whole new jobs.json rather than appended to the journal. */
  full: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The embedded store: OpenClaw's layout, `<dir>/jobs.json` (`{version: 1, jobs}`, plus a
 * generation and the live claims) and `<dir>/runs/<jobId>.jsonl`, with a journal beside it
 * (`jobs.journal.<generation>.jsonl`) for the frequent small changes. Any number of processes may
 * share the directory. Every change is made under the file's cross-process lock, on the current
 * state, and is on disk before it is answered: adds, edits and removals rewrite jobs.json (folding
 * the journal in); claims and releases append one line per job to the journal, so a run costs an
 * append, not a rewrite of every job. The journal is folded into jobs.json when it grows past the
 * size of jobs.json (so rewrites stay a fixed share of the appends) and when the scheduler stops.
 * Every operation first checks whether jobs.json changed (one fstat and a small read) and reads
 * only the journal lines it has not seen.
 */
export class FileCronStore implements CronStore {
  readonly location: string;
  private readonly jobsFile: string;
  private readonly runs: RunLogs;
  private readonly view: JobsView;
  private queue: Change[] = [];
  private committing: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    options: FileCronStoreOptions = {},
  ) {
    this.jobsFile = path.join(dir, "jobs.json");
    this.location = this.jobsFile;
    this.view = new JobsView(dir, this.jobsFile);
    this.runs = new RunLogs(
      path.join(dir, "runs"),
      options.runLogMaxBytes ?? RUN_LOG_MAX_BYTES,
      options.runLogKeepLines ?? RUN_LOG_KEEP_LINES,
    );
  }

  /**
   * Applies `apply` to the current jobs under the cross-process lock and answers once the change
   * is on disk. Changes queued while one write runs share the next (group commit): one lock, one
   * re-read check and one write for the lot. `sync: false` skips the fsync (claims and releases:
   * other processes see the write at once; a crash before the disk has it leaves the job due, or
   * restorable from its run log line). `full`: rewrite jobs.json rather than append.
   */
  private mutate<T>(
    apply: (doc: JobsDoc) => T,
    options: { sync?: boolean; full?: boolean } = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        apply,
        sync: options.sync ?? true,
        full: options.full ?? false,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.committing ??= this.commitAll().finally(() => {
        this.committing = undefined;
      });
    });
  }

  private async commitAll(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const results: Array<{ ok: boolean; value: unknown }> = [];
      try {
        // one stat rather than a thread-pool round trip per commit
        if (!existsSync(this.dir)) await mkdir(this.dir, { recursive: true });
        await withWriteLock(this.jobsFile, () =>
          withFileLock(this.jobsFile, async () => {
            const doc = this.view.refresh();
            this.view.touched.clear();
            for (const change of batch) {
              try {
                results.push({ ok: true, value: change.apply(doc) });
              } catch (error) {
                results.push({ ok: false, value: error });
              }
            }
            await this.view.write(
              doc,
              batch.some((change) => change.sync),
              batch.some((change) => change.full),
            );
          }),
        );
      } catch (error) {
        for (const change of batch) change.reject(error);
        continue;
      }
      batch.forEach((change, i) => {
        const result = results[i] as { ok: boolean; value: unknown };
        if (result.ok) change.resolve(result.value);
        else change.reject(result.value);
      });
    }
  }

  /** Every change is written before it is answered; this waits for writes still in flight. */
  async flush(): Promise<void> {
    while (this.committing) await this.committing;
    // the journal is folded in, so jobs.json alone holds every job for whoever reads it next
    this.view.refresh();
    if (this.view.journalEnd > 0) await this.mutate(() => undefined, { full: true });
  }

  async list(): Promise<CronJob[]> {
    const { jobs } = this.view.refresh();
    return this.view.order.slice(0, jobs.size).map((id) => structuredClone(jobs.get(id) as CronJob));
  }

  async listPage(page: { offset: number; limit: number; includeDisabled?: boolean }) {
    const { jobs } = this.view.refresh();
    const order = page.includeDisabled ? this.view.order : this.view.enabledOrder;
    const ids = order.slice(page.offset, page.limit);
    return { jobs: ids.map((id) => structuredClone(jobs.get(id) as CronJob)), total: order.size };
  }

  async count(): Promise<number> {
    return this.view.refresh().jobs.size;
  }

  async nextWakeAtMs(nowMs: number): Promise<number | undefined> {
    this.view.refresh();
    return this.view.due.nextWake(nowMs);
  }

  async get(id: string): Promise<CronJob | undefined> {
    const job = this.view.refresh().jobs.get(id);
    return job ? structuredClone(job) : undefined;
  }

  async upsert(job: CronJob): Promise<void> {
    if (!SAFE_ID.test(job.id)) throw new Error(`invalid cron job id: ${job.id}`);
    const copy = structuredClone(job);
    await this.mutate(
      (doc) => {
        doc.jobs.set(copy.id, structuredClone(copy));
        this.view.reindex(doc.jobs.get(copy.id) as CronJob);
      },
      { full: true },
    );
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.mutate(
      (doc) => {
        this.view.unindex(id);
        doc.leases.delete(id);
        return doc.jobs.delete(id);
      },
      { full: true },
    );
    if (removed && SAFE_ID.test(id)) await this.runs.remove(id);
    return removed;
  }

  private lease(owner: string, until: number): JobLease {
    return { owner, until, pid: process.pid, host: HOST };
  }

  async claimDue(nowMs: number, owner: string, leaseMs: number, max: number): Promise<CronJob[]> {
    if (max <= 0) return [];
    this.view.refresh();
    if (!this.view.due.peekDue(nowMs)) return [];
    return this.mutate(
      (doc) => {
        const claimed: CronJob[] = [];
        for (
          let head = this.view.due.peekDue(nowMs);
          head && claimed.length < max;
          head = this.view.due.peekDue(nowMs)
        ) {
          const job = doc.jobs.get(head.id);
          if (!job) {
            this.view.unindex(head.id);
            continue;
          }
          doc.leases.set(job.id, this.lease(owner, nowMs + leaseMs));
          job.state.runningAtMs = nowMs;
          this.view.reindex(job);
          claimed.push(structuredClone(job));
        }
        return claimed;
      },
      { sync: false },
    );
  }

  async claim(id: string, nowMs: number, owner: string, leaseMs: number): Promise<CronJob | undefined> {
    return this.mutate(
      (doc) => {
        const job = doc.jobs.get(id);
        if (!job || leaseLive(doc.leases.get(id), nowMs)) return undefined;
        doc.leases.set(id, this.lease(owner, nowMs + leaseMs));
        job.state.runningAtMs = nowMs;
        this.view.reindex(job);
        return structuredClone(job);
      },
      { sync: false },
    );
  }

  async release(
    id: string,
    owner: string,
    next: Partial<CronJobState>,
    options: { remove?: boolean; disable?: boolean } = {},
  ): Promise<boolean> {
    const released = await this.mutate(
      (doc) => {
        const lease = doc.leases.get(id);
        if (!lease || lease.owner !== owner) return false;
        doc.leases.delete(id);
        const job = doc.jobs.get(id);
        if (!job) return true;
        if (options.remove) {
          doc.jobs.delete(id);
          this.view.unindex(id);
          return true;
        }
        const state: CronJobState = { ...job.state, ...next };
        delete state.runningAtMs;
        for (const key of Object.keys(state) as Array<keyof CronJobState>)
          if (state[key] === undefined) delete state[key];
        job.state = state;
        if (options.disable) job.enabled = false;
        this.view.reindex(job);
        return true;
      },
      { sync: options.remove === true },
    );
    if (released && options.remove && SAFE_ID.test(id)) await this.runs.remove(id);
    return released;
  }

  async appendRun(entry: CronRunLogEntry): Promise<void> {
    if (!SAFE_ID.test(entry.jobId)) throw new Error(`invalid cron job id: ${entry.jobId}`);
    await this.runs.append(entry);
  }

  async readRuns(
    jobId: string,
    page: { offset?: number; limit?: number } = {},
  ): Promise<Page<CronRunLogEntry>> {
    return this.runs.read(SAFE_ID.test(jobId) ? jobId : "", page);
  }
}
