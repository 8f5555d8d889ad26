import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { RunOwner } from "@clawtools/core/contracts";
import type { RunRegistry } from "./interfaces.js";
import type { RunRecord } from "./types.js";

export type { RunOwner };

export interface LivenessOptions {
  /** How often a service records that its runs are alive and looks for lost ones (default 10 s). */
  heartbeatMs?: number;
  /** A run whose heartbeat is older than this is lost even if a process with its pid runs (default 6 heartbeats). */
  staleMs?: number;
  /** How often a service looks for kills other processes asked of the runs it holds (default 1 s). */
  abortCheckMs?: number;
  /**
   * With a registry that binds liveness to connections (`RunRegistry.liveness`, PostgreSQL): how
   * often a service asks it whether any run's holder is gone, and ends those runs lost (default
   * 1 s; one cheap read, a whole reap only when one is).
   */
  lostCheckMs?: number;
  /** How long a kill of a run another live process holds waits for that process to end it (default 10 s). */
  killWaitMs?: number;
  /**
   * Who this service records as the holder of its runs (default: this process, a new instance
   * id). Tests give a stand-in process's pid, whose SIGKILL then plays this holder's crash.
   */
  owner?: RunOwner;
}

export const DEFAULT_HEARTBEAT_MS = 10_000;
export const DEFAULT_ABORT_CHECK_MS = 1_000;
export const DEFAULT_LOST_CHECK_MS = 1_000;
export const DEFAULT_KILL_WAIT_MS = 10_000;

/** A liveness period as given, or the default; anything but a positive finite number is refused by name. */
export function period(options: LivenessOptions, name: keyof LivenessOptions, fallback: number): number {
  const value = options[name] ?? fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw new Error(
      `sessions liveness: ${name} must be a positive number of milliseconds (got ${String(value)})`,
    );
  return value;
}

export function newOwner(): RunOwner {
  return { pid: process.pid, instance: randomUUID(), host: hostname() };
}

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Why a running run has lost its owner, or undefined while the owner is alive. Given `live` (the
 * registry's live tokens, `RunRegistry.liveness`), a run stamped with an epoch is judged by it
 * alone, on any machine and for `self` too (a holder whose connection dropped lost its runs).
 * Otherwise `self`'s runs live; a process of this machine that is gone is lost at once; any other
 * (another machine, a pid that may have been reused, a run recorded before owners were) only once
 * its heartbeat is stale.
 */
export function lostReason(
  run: RunRecord,
  self: RunOwner,
  now: number,
  staleMs: number,
  live?: ReadonlySet<number>,
): string | undefined {
  const owner = run.owner;
  if (owner?.epoch !== undefined && live)
    return live.has(owner.epoch)
      ? undefined
      : `its owner process ${owner.pid}${owner.host === self.host ? "" : ` on ${owner.host}`} is gone (its connection to the database dropped)`;
  if (owner?.instance === self.instance) return undefined;
  const beat = run.heartbeatAt ?? run.startedAt ?? run.createdAt;
  const silentFor = now - beat;
  const stale = silentFor > staleMs;
  if (!owner)
    return stale ? `no owner recorded and no heartbeat for ${Math.round(silentFor / 1000)}s` : undefined;
  if (owner.host === self.host && owner.pid !== self.pid && !pidAlive(owner.pid))
    return `its owner process ${owner.pid} is gone`;
  if (stale)
    return `its owner process ${owner.pid}${owner.host === self.host ? "" : ` on ${owner.host}`} has not sent a heartbeat for ${Math.round(silentFor / 1000)}s`;
  return undefined;
}

/** The registry's live holder tokens when it binds holders to their connections (else undefined). */
export async function liveTokens(runs: RunRegistry): Promise<ReadonlySet<number> | undefined> {
  return (await runs.liveness?.())?.live;
}
