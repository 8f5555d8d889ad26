import { appendFile, mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { withWriteLock } from "@clawtools/core";
import type { CronStore } from "../cron/interfaces.js";
import type { CronJob, CronJobState, CronRunLogEntry, Page } from "../cron/types.js";
import { writeAtomic } from "./atomic.js";
import { DueIndex } from "./due-index.js";
import { OrderedIndex } from "./ordered-index.js";

/**
 * Run logs are pruned once they pass 2 MB, to their newest 2,000 lines (OpenClaw's `run-log.ts`),
 * and to no more than 1 MB of them, so long lines do not cause a rewrite per append.
 */
export const RUN_LOG_MAX_BYTES = 2_000_000;
export const RUN_LOG_KEEP_LINES = 2_000;

export interface FileCronStoreOptions {
  /** Pruning bounds of each run log (defaults: 2 MB, 2,000 lines). */
  runLogMaxBytes?: number;
  runLogKeepLines?: number;
}

/** Claims and releases reach jobs.json within this long (or sooner, with a durable change). */
export const LAZY_FLUSH_MS = 20;

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The embedded store: OpenClaw's layout, `<dir>/jobs.json` (`{version: 1, jobs}`) and
 * `<dir>/runs/<jobId>.jsonl`, written atomically and serialised per file. Leases live in this
 * process (one scheduler per store directory); a job left marked running by a crash is found by
 * the scheduler's start and recorded as interrupted.
 */
export class FileCronStore implements CronStore {
  readonly location: string;
  private readonly jobsFile: string;
  private readonly runsDir: string;
  private jobs: Map<string, CronJob> | undefined;
  private readonly leases = new Map<string, { owner: string; until: number }>();
  private readonly maxBytes: number;
  private readonly keepLines: number;
  // kept current by every change, so claiming, arming and paging never scan the jobs
  private readonly due = new DueIndex();
  private readonly order = new OrderedIndex();
  private readonly enabledOrder = new OrderedIndex();
  /** Run log sizes as this process last wrote them (each file is stat'ed once). */
  private readonly runLogBytes = new Map<string, number>();
  private runsDirReady = false;

  constructor(
    readonly dir: string,
    options: FileCronStoreOptions = {},
  ) {
    this.jobsFile = path.join(dir, "jobs.json");
    this.runsDir = path.join(dir, "runs");
    this.location = this.jobsFile;
    this.maxBytes = options.runLogMaxBytes ?? RUN_LOG_MAX_BYTES;
    this.keepLines = options.runLogKeepLines ?? RUN_LOG_KEEP_LINES;
  }

  private async load(): Promise<Map<string, CronJob>> {
    if (this.jobs) return this.jobs;
    let text: string | undefined;
    try {
      text = await readFile(this.jobsFile, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const map = new Map<string, CronJob>();
    if (text?.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new Error(`cron store ${this.jobsFile} is not valid JSON: ${(error as Error).message}`);
      }
      const jobs = (parsed as { jobs?: unknown }).jobs;
      if (!Array.isArray(jobs)) throw new Error(`cron store ${this.jobsFile} has no "jobs" array`);
      for (const job of jobs as CronJob[]) map.set(job.id, { ...job, state: job.state ?? {} });
    }
    if (!this.jobs) {
      this.jobs = map;
      const all = [...map.values()];
      this.order.reset(all.map((job) => ({ id: job.id, at: job.state.nextRunAtMs })));
      this.enabledOrder.reset(
        all.filter((job) => job.enabled).map((job) => ({ id: job.id, at: job.state.nextRunAtMs })),
      );
      for (const job of all) this.due.set(job.id, job.enabled ? job.state.nextRunAtMs : undefined);
    }
    return this.jobs;
  }

  /** Puts a job where it belongs in the due and list orders, after any change to it. */
  private reindex(job: CronJob): void {
    const next = job.state.nextRunAtMs;
    const lease = this.leases.get(job.id);
    this.due.set(job.id, job.enabled ? next : undefined, lease?.until);
    this.order.set(job.id, next);
    if (job.enabled) this.enabledOrder.set(job.id, next);
    else this.enabledOrder.delete(job.id);
  }

  private unindex(id: string): void {
    this.due.delete(id);
    this.order.delete(id);
    this.enabledOrder.delete(id);
  }

  private async save(jobs: Map<string, CronJob>): Promise<void> {
    // indented for people reading it; compact once it is large (a write per run must stay cheap)
    const doc = { version: 1, jobs: [...jobs.values()] };
    await writeAtomic(
      this.jobsFile,
      `${jobs.size <= 200 ? JSON.stringify(doc, null, 2) : JSON.stringify(doc)}\n`,
    );
  }

  /**
   * Changes the jobs in memory, then waits until a write of jobs.json that includes the change
   * has finished. Writes are group-committed: changes made while one write runs share the next.
   */
  private async mutate<T>(fn: (jobs: Map<string, CronJob>) => T | Promise<T>, durable = true): Promise<T> {
    const result = await withWriteLock(this.jobsFile, async () => fn(await this.load()));
    if (durable) await this.persist();
    else this.persistSoon();
    return result;
  }

  private dirty = false;
  private flushing: Promise<void> | undefined;
  private soon: ReturnType<typeof setTimeout> | undefined;

  /**
   * Waits until a write of jobs.json that includes every change so far has finished. Writes are
   * group-committed: changes made while one write runs share the next one.
   */
  private persist(): Promise<void> {
    this.dirty = true;
    if (this.soon) clearTimeout(this.soon);
    this.soon = undefined;
    this.flushing ??= (async () => {
      try {
        while (this.dirty) {
          this.dirty = false;
          const started = performance.now();
          await this.save(await this.load());
          this.lastSaveMs = performance.now() - started;
        }
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  /**
   * Writes within LAZY_FLUSH_MS (or twice the last write's duration, when that is longer), or
   * sooner with the next durable change. Claims and releases are
   * lazy: a run's outcome is already durable in its run log line (the scheduler writes it before
   * releasing), and recovery restores the job's state from it.
   */
  private lastSaveMs = 0;

  private persistSoon(): void {
    this.dirty = true;
    if (this.flushing || this.soon) return;
    this.soon = setTimeout(
      () => {
        this.soon = undefined;
        // a failed write is retried by the next change, which reports it
        this.persist().catch(() => {});
        // a large store waits longer between lazy writes, so writing it takes at most a third of
        // the time during a burst of runs
      },
      Math.max(LAZY_FLUSH_MS, 2 * this.lastSaveMs),
    );
  }

  async flush(): Promise<void> {
    if (this.dirty || this.flushing || this.soon) await this.persist();
  }

  async list(): Promise<CronJob[]> {
    const jobs = await this.load();
    return this.order.slice(0, jobs.size).map((id) => structuredClone(jobs.get(id) as CronJob));
  }

  async listPage(page: { offset: number; limit: number; includeDisabled?: boolean }) {
    const jobs = await this.load();
    const order = page.includeDisabled ? this.order : this.enabledOrder;
    const ids = order.slice(page.offset, page.limit);
    return { jobs: ids.map((id) => structuredClone(jobs.get(id) as CronJob)), total: order.size };
  }

  async count(): Promise<number> {
    return (await this.load()).size;
  }

  async nextWakeAtMs(nowMs: number): Promise<number | undefined> {
    await this.load();
    return this.due.nextWake(nowMs);
  }

  async get(id: string): Promise<CronJob | undefined> {
    const job = (await this.load()).get(id);
    return job ? structuredClone(job) : undefined;
  }

  async upsert(job: CronJob): Promise<void> {
    if (!SAFE_ID.test(job.id)) throw new Error(`invalid cron job id: ${job.id}`);
    const copy = structuredClone(job);
    await this.mutate((jobs) => {
      jobs.set(copy.id, copy);
      this.reindex(copy);
    });
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.mutate((jobs) => {
      this.unindex(id);
      return jobs.delete(id);
    });
    this.leases.delete(id);
    if (removed && SAFE_ID.test(id)) {
      const file = this.runFile(id);
      await withWriteLock(file, async () => {
        this.runLogBytes.delete(file);
        await rm(file, { force: true });
      });
    }
    return removed;
  }

  private held(id: string, nowMs: number): boolean {
    const lease = this.leases.get(id);
    return lease !== undefined && lease.until > nowMs;
  }

  async claimDue(nowMs: number, owner: string, leaseMs: number, max: number): Promise<CronJob[]> {
    if (max <= 0) return [];
    await this.load();
    if (!this.due.peekDue(nowMs)) return [];
    // the claim is written within LAZY_FLUSH_MS; a crash before that leaves the job due, and it
    // runs again as a missed run
    return this.mutate((jobs) => {
      const claimed: CronJob[] = [];
      for (let head = this.due.peekDue(nowMs); head && claimed.length < max; head = this.due.peekDue(nowMs)) {
        const job = jobs.get(head.id);
        if (!job) {
          this.unindex(head.id);
          continue;
        }
        this.leases.set(job.id, { owner, until: nowMs + leaseMs });
        job.state.runningAtMs = nowMs;
        this.reindex(job);
        claimed.push(structuredClone(job));
      }
      return claimed;
    }, false);
  }

  async claim(id: string, nowMs: number, owner: string, leaseMs: number): Promise<CronJob | undefined> {
    return this.mutate((jobs) => {
      const job = jobs.get(id);
      if (!job || this.held(id, nowMs)) return undefined;
      this.leases.set(id, { owner, until: nowMs + leaseMs });
      job.state.runningAtMs = nowMs;
      this.reindex(job);
      return structuredClone(job);
    });
  }

  async release(
    id: string,
    owner: string,
    next: Partial<CronJobState>,
    options: { remove?: boolean; disable?: boolean } = {},
  ): Promise<boolean> {
    const lease = this.leases.get(id);
    if (!lease || lease.owner !== owner) return false;
    this.leases.delete(id);
    if (options.remove) {
      await this.remove(id);
      return true;
    }
    await this.mutate((jobs) => {
      const job = jobs.get(id);
      if (!job) return;
      const state: CronJobState = { ...job.state, ...next };
      delete state.runningAtMs;
      for (const key of Object.keys(state) as Array<keyof CronJobState>)
        if (state[key] === undefined) delete state[key];
      job.state = state;
      if (options.disable) job.enabled = false;
      this.reindex(job);
    }, false);
    return true;
  }

  private runFile(jobId: string): string {
    return path.join(this.runsDir, `${jobId}.jsonl`);
  }

  async appendRun(entry: CronRunLogEntry): Promise<void> {
    if (!SAFE_ID.test(entry.jobId)) throw new Error(`invalid cron job id: ${entry.jobId}`);
    const file = this.runFile(entry.jobId);
    await withWriteLock(file, async () => {
      if (!this.runsDirReady) {
        await mkdir(this.runsDir, { recursive: true });
        this.runsDirReady = true;
      }
      const line = `${JSON.stringify(entry)}\n`;
      try {
        await appendFile(file, line);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        // the runs directory was removed behind our back: make it again
        await mkdir(this.runsDir, { recursive: true });
        await appendFile(file, line);
      }
      // one stat per file, then the size is counted here (one scheduler writes each store)
      const known = this.runLogBytes.get(file);
      const size = known === undefined ? (await stat(file)).size : known + Buffer.byteLength(line);
      this.runLogBytes.set(file, size);
      if (size <= this.maxBytes) return;
      // newest lines first: at most keepLines, and at most half the byte bound, so a log of
      // long lines is not rewritten on every append
      const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
      const kept: string[] = [];
      let bytes = 0;
      for (let i = lines.length - 1; i >= 0 && kept.length < this.keepLines; i--) {
        bytes += Buffer.byteLength(lines[i] as string) + 1;
        if (bytes > this.maxBytes / 2 && kept.length > 0) break;
        kept.push(lines[i] as string);
      }
      const text = `${kept.reverse().join("\n")}\n`;
      await writeAtomic(file, text);
      this.runLogBytes.set(file, Buffer.byteLength(text));
    });
  }

  async readRuns(
    jobId: string,
    page: { offset?: number; limit?: number } = {},
  ): Promise<Page<CronRunLogEntry>> {
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.max(1, Math.min(200, Math.floor(page.limit ?? 50)));
    let text = "";
    if (SAFE_ID.test(jobId)) {
      try {
        text = await readFile(this.runFile(jobId), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    const all: CronRunLogEntry[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        all.push(JSON.parse(line) as CronRunLogEntry);
      } catch {
        // a torn last line (a crash mid-append) is skipped
      }
    }
    all.reverse();
    const entries = all.slice(offset, offset + limit);
    const hasMore = offset + entries.length < all.length;
    return {
      entries,
      total: all.length,
      offset,
      limit,
      hasMore,
      nextOffset: hasMore ? offset + entries.length : null,
    };
  }
}
