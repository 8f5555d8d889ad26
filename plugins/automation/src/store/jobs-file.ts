import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { hostname } from "node:os";
import { processAlive } from "@clawtools/core/safety";
import { writeJsonAtomic } from "@clawtools/core/state";
import type { CronJob } from "../cron/types.js";

export const HOST = hostname();

/** A claim on a job, kept in jobs.json so every process sharing the directory honours it. */
export interface JobLease {
  owner: string;
  until: number;
  /** The claiming process (a claim of a process gone from this host is void). */
  pid: number;
  host: string;
}

/** What jobs.json holds: OpenClaw's `{version: 1, jobs}`, plus a generation and the live claims. */
export interface JobsDoc {
  generation: number;
  jobs: Map<string, CronJob>;
  leases: Map<string, JobLease>;
}

/**
 * Identifies one version of the file: its inode, size and change time, and the generation
 * written at its head. Every write bumps the generation under the cross-process lock, so a file
 * replaced by another process is never mistaken for the one read before, even when the inode
 * number is reused and the size and time come out the same.
 */
export type Signature = string;

const HEAD_BYTES = 96;
const GENERATION = /"generation":\s*(\d+)/;

/** A lease whose process is known to be gone (same host, no such pid) holds nothing. */
export function leaseLive(lease: JobLease | undefined, nowMs: number): lease is JobLease {
  if (!lease || lease.until <= nowMs) return false;
  return !(lease.host === HOST && lease.pid !== process.pid && !processAlive(lease.pid));
}

/**
 * Reads jobs.json unless its signature is `known` (then undefined: nothing changed). One open,
 * one fstat and a small read when unchanged; the whole file, through the same descriptor, when
 * it changed. A missing file is an empty store.
 */
export function readJobsFile(
  file: string,
  known: Signature | undefined,
  options: { signatureOnly?: boolean } = {},
): { sig: Signature; doc?: JobsDoc; size: number } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const sig = "missing";
    return sig === known || options.signatureOnly
      ? { sig, size: 0 }
      : { sig, size: 0, doc: { generation: 0, jobs: new Map(), leases: new Map() } };
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    readSync(fd, head, 0, head.length, 0);
    const generation = Number(GENERATION.exec(head.toString("utf8"))?.[1] ?? 0);
    const sig = `${st.ino}:${size}:${st.mtimeNs}:${st.ctimeNs}:${generation}`;
    if (sig === known || options.signatureOnly) return { sig, size };
    const data = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, data, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { sig, size, doc: parseJobs(file, data.subarray(0, read).toString("utf8"), generation) };
  } finally {
    closeSync(fd);
  }
}

function parseJobs(file: string, text: string, generation: number): JobsDoc {
  const doc: JobsDoc = { generation, jobs: new Map(), leases: new Map() };
  if (!text.trim()) return doc;
  let parsed: { jobs?: unknown; leases?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`cron store ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed.jobs)) throw new Error(`cron store ${file} has no "jobs" array`);
  for (const job of parsed.jobs as CronJob[]) doc.jobs.set(job.id, { ...job, state: job.state ?? {} });
  if (parsed.leases && typeof parsed.leases === "object")
    for (const [id, lease] of Object.entries(parsed.leases as Record<string, JobLease>))
      if (doc.jobs.has(id) && typeof lease?.owner === "string" && typeof lease.until === "number")
        doc.leases.set(id, lease);
  return doc;
}

/**
 * Writes the whole document with core's atomic JSON write (temp file, rename; flushed with its
 * directory when `sync`), the generation first: the cheap change check reads only the head.
 */
export async function writeJobsFile(file: string, doc: JobsDoc, sync: boolean): Promise<void> {
  const body: Record<string, unknown> = {
    version: 1,
    generation: doc.generation,
    jobs: [...doc.jobs.values()],
  };
  if (doc.leases.size > 0) body.leases = Object.fromEntries(doc.leases);
  await writeJsonAtomic(file, body, { durable: sync });
}
