import { mkdir } from "node:fs/promises";
import path from "node:path";
import { withFileLock, withWriteLock } from "@clawtools/core";
import type { CronStore } from "../cron/interfaces.js";
import type { CronJob, CronJobState, CronRunLogEntry, Page } from "../cron/types.js";
import { DueIndex } from "./due-index.js";
import {
  HOST,
  type JobLease,
  type JobsDoc,
  leaseLive,
  readJobsFile,
  type Signature,
  writeJobsFile,
} from "./jobs-file.js";
import { OrderedIndex } from "./ordered-index.js";
import { RUN_LOG_KEEP_LINES, RUN_LOG_MAX_BYTES, RunLogs } from "./run-log.js";

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
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The embedded store: OpenClaw's layout, `<dir>/jobs.json` (`{version: 1, jobs}`, plus a
 * generation and the live claims) and `<dir>/runs/<jobId>.jsonl`. Any number of processes may
 * share the directory: every operation first checks whether the file changed (one fstat and a
 * small read when it did not) and re-reads it if so, rebuilding the indexes; every change is a
 * read-modify-write under the file's cross-process lock, and claims are written into the file
 * before they are answered, so no other process can take them.
 */
export class FileCronStore implements CronStore {
  readonly location: string;
  private readonly jobsFile: string;
  private readonly runs: RunLogs;
  private doc: JobsDoc = { generation: 0, jobs: new Map(), leases: new Map() };
  private sig: Signature | undefined;
  // rebuilt on every re-read and kept current by every change, so claiming, arming and paging
  // never scan the jobs
  private readonly due = new DueIndex();
  private readonly order = new OrderedIndex();
  private readonly enabledOrder = new OrderedIndex();
  private queue: Change[] = [];
  private committing: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    options: FileCronStoreOptions = {},
  ) {
    this.jobsFile = path.join(dir, "jobs.json");
    this.location = this.jobsFile;
    this.runs = new RunLogs(
      path.join(dir, "runs"),
      options.runLogMaxBytes ?? RUN_LOG_MAX_BYTES,
      options.runLogKeepLines ?? RUN_LOG_KEEP_LINES,
    );
  }

  /** Re-reads jobs.json if another process (or a person) changed it since this one last saw it. */
  private refresh(): JobsDoc {
    const { sig, doc } = readJobsFile(this.jobsFile, this.sig);
    if (doc) {
      this.doc = doc;
      const all = [...doc.jobs.values()];
      this.order.reset(all.map((job) => ({ id: job.id, at: job.state.nextRunAtMs })));
      this.enabledOrder.reset(
        all.filter((job) => job.enabled).map((job) => ({ id: job.id, at: job.state.nextRunAtMs })),
      );
      this.due.clear();
      for (const job of all) this.reindex(job);
    }
    this.sig = sig;
    return this.doc;
  }

  /** Puts a job where it belongs in the due and list orders, after any change to it. */
  private reindex(job: CronJob): void {
    const next = job.state.nextRunAtMs;
    // a claim of a process gone from this host holds nothing: the job may be claimed at once
    const lease = this.doc.leases.get(job.id);
    const until = leaseLive(lease, Number.NEGATIVE_INFINITY) ? lease.until : undefined;
    this.due.set(job.id, job.enabled ? next : undefined, until);
    this.order.set(job.id, next);
    if (job.enabled) this.enabledOrder.set(job.id, next);
    else this.enabledOrder.delete(job.id);
  }

  private unindex(id: string): void {
    this.due.delete(id);
    this.order.delete(id);
    this.enabledOrder.delete(id);
  }

  /**
   * Applies `apply` to the current jobs under the cross-process lock and answers once the file
   * holding the change is in place. Changes queued while one write runs share the next
   * (group commit): one lock, one re-read check and one write for the lot. `sync: false` skips
   * the fsync (claims and releases: other processes see the rename at once; a crash before the
   * disk has it leaves the job due, or restorable from its run log line).
   */
  private mutate<T>(apply: (doc: JobsDoc) => T, sync = true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ apply, sync, resolve: resolve as (value: unknown) => void, reject });
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
        await mkdir(this.dir, { recursive: true });
        await withWriteLock(this.jobsFile, () =>
          withFileLock(this.jobsFile, async () => {
            const doc = this.refresh();
            for (const change of batch) {
              try {
                results.push({ ok: true, value: change.apply(doc) });
              } catch (error) {
                results.push({ ok: false, value: error });
              }
            }
            doc.generation++;
            // whether or not it gets written, the next operation reads the file again
            this.sig = undefined;
            await writeJobsFile(
              this.jobsFile,
              doc,
              batch.some((change) => change.sync),
            );
            // our own write, whose content is in memory: only its signature is taken (under the
            // lock, so it is this write's), and the next operation does not re-read it
            this.sig = readJobsFile(this.jobsFile, undefined, { signatureOnly: true }).sig;
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
  }

  async list(): Promise<CronJob[]> {
    const { jobs } = this.refresh();
    return this.order.slice(0, jobs.size).map((id) => structuredClone(jobs.get(id) as CronJob));
  }

  async listPage(page: { offset: number; limit: number; includeDisabled?: boolean }) {
    const { jobs } = this.refresh();
    const order = page.includeDisabled ? this.order : this.enabledOrder;
    const ids = order.slice(page.offset, page.limit);
    return { jobs: ids.map((id) => structuredClone(jobs.get(id) as CronJob)), total: order.size };
  }

  async count(): Promise<number> {
    return this.refresh().jobs.size;
  }

  async nextWakeAtMs(nowMs: number): Promise<number | undefined> {
    this.refresh();
    return this.due.nextWake(nowMs);
  }

  async get(id: string): Promise<CronJob | undefined> {
    const job = this.refresh().jobs.get(id);
    return job ? structuredClone(job) : undefined;
  }

  async upsert(job: CronJob): Promise<void> {
    if (!SAFE_ID.test(job.id)) throw new Error(`invalid cron job id: ${job.id}`);
    const copy = structuredClone(job);
    await this.mutate((doc) => {
      doc.jobs.set(copy.id, structuredClone(copy));
      this.reindex(doc.jobs.get(copy.id) as CronJob);
    });
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.mutate((doc) => {
      this.unindex(id);
      doc.leases.delete(id);
      return doc.jobs.delete(id);
    });
    if (removed && SAFE_ID.test(id)) await this.runs.remove(id);
    return removed;
  }

  private lease(owner: string, until: number): JobLease {
    return { owner, until, pid: process.pid, host: HOST };
  }

  async claimDue(nowMs: number, owner: string, leaseMs: number, max: number): Promise<CronJob[]> {
    if (max <= 0) return [];
    this.refresh();
    if (!this.due.peekDue(nowMs)) return [];
    return this.mutate((doc) => {
      const claimed: CronJob[] = [];
      for (let head = this.due.peekDue(nowMs); head && claimed.length < max; head = this.due.peekDue(nowMs)) {
        const job = doc.jobs.get(head.id);
        if (!job) {
          this.unindex(head.id);
          continue;
        }
        doc.leases.set(job.id, this.lease(owner, nowMs + leaseMs));
        job.state.runningAtMs = nowMs;
        this.reindex(job);
        claimed.push(structuredClone(job));
      }
      return claimed;
    }, false);
  }

  async claim(id: string, nowMs: number, owner: string, leaseMs: number): Promise<CronJob | undefined> {
    return this.mutate((doc) => {
      const job = doc.jobs.get(id);
      if (!job || leaseLive(doc.leases.get(id), nowMs)) return undefined;
      doc.leases.set(id, this.lease(owner, nowMs + leaseMs));
      job.state.runningAtMs = nowMs;
      this.reindex(job);
      return structuredClone(job);
    }, false);
  }

  async release(
    id: string,
    owner: string,
    next: Partial<CronJobState>,
    options: { remove?: boolean; disable?: boolean } = {},
  ): Promise<boolean> {
    const released = await this.mutate((doc) => {
      const lease = doc.leases.get(id);
      if (!lease || lease.owner !== owner) return false;
      doc.leases.delete(id);
      const job = doc.jobs.get(id);
      if (!job) return true;
      if (options.remove) {
        doc.jobs.delete(id);
        this.unindex(id);
        return true;
      }
      const state: CronJobState = { ...job.state, ...next };
      delete state.runningAtMs;
      for (const key of Object.keys(state) as Array<keyof CronJobState>)
        if (state[key] === undefined) delete state[key];
      job.state = state;
      if (options.disable) job.enabled = false;
      this.reindex(job);
      return true;
    }, options.remove === true);
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
