import type { Clock } from "./interfaces.js";

/** The scheduler's one timer: armed at the nearest time asked for; a nearer one already set stays. */
export class WakeTimer {
  private timer: unknown;
  /** When it fires (undefined: not armed). */
  atMs: number | undefined;
  /** The due time it wakes for (a turn may wake after it); undefined: a probe or renewal, no due time. */
  dueMs: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onFire: () => void,
  ) {}

  /** Arms the timer at `atMs` (now, if past), unless a nearer one is already set. */
  set(atMs: number, dueMs?: number): void {
    const at = Math.max(atMs, this.clock.now());
    if (this.atMs !== undefined && this.atMs <= at) return;
    this.move(at, dueMs);
  }

  /** Arms it at `atMs` even when that is later than it stands (what it woke for was taken). */
  move(atMs: number, dueMs?: number): void {
    const at = Math.max(atMs, this.clock.now());
    this.clear();
    this.atMs = at;
    this.dueMs = dueMs;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.atMs = undefined;
      this.dueMs = undefined;
      this.onFire();
    }, at - this.clock.now());
  }

  clear(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.atMs = undefined;
    this.dueMs = undefined;
  }
}
