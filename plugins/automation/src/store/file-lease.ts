import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { withFileLock, withWriteLock } from "@clawtools/core/safety";
import { writeJsonAtomic } from "@clawtools/core/state";
import type { LeaseHolder } from "@clawtools/core/contracts";
import type { Clock, LeaderLease } from "../cron/interfaces.js";
import { systemClock } from "../cron/interfaces.js";
import { HOST, type JobLease, leaseLive } from "./jobs-file.js";

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The embedded leader lease: `<dir>/leader.<name>.json` holding the holder's name, pid, host and
 * the end of its lease, read and written under the file's cross-process lock. Another owner gets
 * it once the lease has run out, or at once when the holder's process is gone from this host
 * (a `kill -9`); the old holder then cannot renew it.
 */
export class FileLeaderLease implements LeaderLease {
  constructor(
    readonly dir: string,
    private readonly clock: Clock = systemClock,
  ) {}

  private file(name: string): string {
    if (!SAFE_NAME.test(name)) throw new Error(`invalid leader lease name: ${name}`);
    return path.join(this.dir, `leader.${name}.json`);
  }

  private async read(file: string): Promise<JobLease | undefined> {
    try {
      const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<JobLease>;
      if (typeof parsed.owner === "string" && typeof parsed.until === "number") return parsed as JobLease;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && !(error instanceof SyntaxError)) throw error;
    }
    // missing or unreadable (a torn hand edit): nobody holds it
    return undefined;
  }

  private async locked<T>(name: string, run: (file: string) => Promise<T>): Promise<T> {
    const file = this.file(name);
    await mkdir(this.dir, { recursive: true });
    return withWriteLock(file, () => withFileLock(file, () => run(file)));
  }

  private write(file: string, owner: string, ttlMs: number): Promise<void> {
    const lease: JobLease = { owner, until: this.clock.now() + ttlMs, pid: process.pid, host: HOST };
    return writeJsonAtomic(file, lease);
  }

  acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.locked(name, async (file) => {
      const current = await this.read(file);
      if (current && current.owner !== owner && leaseLive(current, this.clock.now())) return false;
      await this.write(file, owner, ttlMs);
      return true;
    });
  }

  renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.locked(name, async (file) => {
      const current = await this.read(file);
      if (current?.owner !== owner) return false;
      await this.write(file, owner, ttlMs);
      return true;
    });
  }

  release(name: string, owner: string): Promise<void> {
    return this.locked(name, async (file) => {
      if ((await this.read(file))?.owner === owner) await rm(file, { force: true });
    });
  }

  /** Who holds the lease now (diagnostics, `status`). */
  async holder(name: string): Promise<LeaseHolder | undefined> {
    const current = await this.read(this.file(name));
    return current && leaseLive(current, this.clock.now())
      ? { owner: current.owner, expiresAtMs: current.until }
      : undefined;
  }
}
