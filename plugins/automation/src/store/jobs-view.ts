import type { CronJob } from "../cron/types.js";
import { DueIndex } from "./due-index.js";
import { type JobsDoc, leaseLive, readJobsFile, type Signature, writeJobsFile } from "./jobs-file.js";
import {
  appendJournal,
  type JournalRecord,
  journalFile,
  readJournal,
  removeOtherJournals,
} from "./journal.js";
import { OrderedIndex } from "./ordered-index.js";

/** The journal is folded into jobs.json once it outgrows this, or jobs.json itself if larger. */
export const JOURNAL_MIN_BYTES = 256 * 1024;

/**
 * One process's view of a cron directory: jobs.json plus the journal lines written on top of it,
 * with the indexes (due order, list orders) kept current by every change, so claiming, arming and
 * paging never scan the jobs. Writes happen only under the caller's cross-process lock.
 */
export class JobsView {
  doc: JobsDoc = { generation: 0, jobs: new Map(), leases: new Map() };
  private sig: Signature | undefined;
  /** Bytes of jobs.json as last read or written (the journal's compaction threshold). */
  private baseBytes = 0;
  /** How far this view has read the journal of `doc.generation`. */
  journalEnd = 0;
  private rewriting = false;
  readonly due = new DueIndex();
  readonly order = new OrderedIndex();
  readonly enabledOrder = new OrderedIndex();
  /** Ids changed since the last write began: what the next write's journal lines carry. */
  readonly touched = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly jobsFile: string,
  ) {}

  /**
   * Brings this view up to date: jobs.json again if another process (or a person) replaced it,
   * then the journal lines written since this view last looked. Lock-free readers may meet a
   * compaction half-way (new jobs.json, old journal gone): they look again.
   */
  refresh(): JobsDoc {
    // while this process rewrites jobs.json (under the lock: nobody else can change it), the
    // memory is the newest state; reading the file being replaced would go back in time
    if (this.rewriting) return this.doc;
    for (let attempt = 0; attempt < 5; attempt++) {
      const base = readJobsFile(this.jobsFile, this.sig);
      if (base.doc) this.load(base.doc, base.size);
      this.sig = base.sig;
      const read = readJournal(journalFile(this.dir, this.doc.generation), this.journalEnd);
      if (read.shrank) {
        this.sig = undefined;
        continue;
      }
      if (read.exists || this.journalEnd === 0) {
        for (const record of read.records) if (record.g === this.doc.generation) this.replay(record);
        this.journalEnd = read.end;
        return this.doc;
      }
      // the journal read before is gone: folded into a new jobs.json, unless a person deleted it
      if (readJobsFile(this.jobsFile, this.sig, { signatureOnly: true }).sig === this.sig) {
        this.journalEnd = 0;
        return this.doc;
      }
    }
    return this.doc;
  }

  private load(doc: JobsDoc, bytes: number): void {
    this.doc = doc;
    this.baseBytes = bytes;
    this.journalEnd = 0;
    const all = [...doc.jobs.values()];
    this.order.reset(all.map((job) => ({ id: job.id, at: job.state.nextRunAtMs })));
    this.enabledOrder.reset(
      all.filter((job) => job.enabled).map((job) => ({ id: job.id, at: job.state.nextRunAtMs })),
    );
    this.due.clear();
    for (const job of all) this.reindex(job);
  }

  /** Applies one journal line: the job's new value and claim, or its removal. */
  private replay(record: JournalRecord): void {
    const { jobs, leases } = this.doc;
    if (!record.job) {
      jobs.delete(record.id);
      leases.delete(record.id);
      this.unindex(record.id);
      return;
    }
    jobs.set(record.id, { ...record.job, state: record.job.state ?? {} });
    if (record.lease) leases.set(record.id, record.lease);
    else leases.delete(record.id);
    this.reindex(jobs.get(record.id) as CronJob);
  }

  /** Puts a job where it belongs in the due and list orders, after any change to it. */
  reindex(job: CronJob): void {
    this.touched.add(job.id);
    const next = job.state.nextRunAtMs;
    // a claim of a process gone from this host holds nothing: the job may be claimed at once
    const lease = this.doc.leases.get(job.id);
    const until = leaseLive(lease, Number.NEGATIVE_INFINITY) ? lease.until : undefined;
    this.due.set(job.id, job.enabled ? next : undefined, until);
    this.order.set(job.id, next);
    if (job.enabled) this.enabledOrder.set(job.id, next);
    else this.enabledOrder.delete(job.id);
  }

  unindex(id: string): void {
    this.touched.add(id);
    this.due.delete(id);
    this.order.delete(id);
    this.enabledOrder.delete(id);
  }

  /** Writes what the batch changed (under the lock): journal lines, or a whole new jobs.json. */
  async write(doc: JobsDoc, sync: boolean, full: boolean): Promise<void> {
    const lines = [...this.touched].map((id) => {
      const job = doc.jobs.get(id);
      const lease = doc.leases.get(id);
      const record: JournalRecord = {
        g: doc.generation,
        id,
        ...(job ? { job } : {}),
        ...(job && lease ? { lease } : {}),
      };
      return `${JSON.stringify(record)}\n`;
    });
    this.touched.clear();
    if (!full && lines.length === 0) return;
    const text = lines.join("");
    const known = this.sig;
    // whether or not it gets written, the next operation reads the files again
    this.sig = undefined;
    if (full || this.journalEnd + text.length > Math.max(JOURNAL_MIN_BYTES, this.baseBytes)) {
      doc.generation++;
      this.rewriting = true;
      try {
        await writeJobsFile(this.jobsFile, doc, sync);
      } finally {
        this.rewriting = false;
      }
      // our own write, whose content is in memory: only its signature is taken (under the lock,
      // so it is this write's), and the next operation does not re-read it
      const written = readJobsFile(this.jobsFile, undefined, { signatureOnly: true });
      this.baseBytes = written.size;
      this.journalEnd = 0;
      removeOtherJournals(this.dir, doc.generation);
      this.sig = written.sig;
      return;
    }
    this.journalEnd = appendJournal(journalFile(this.dir, doc.generation), this.journalEnd, text, sync);
    this.sig = known;
  }
}
