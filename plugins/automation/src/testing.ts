import { FakeClock as CoreFakeClock } from "@clawtools/core/testing";

/**
 * Core's FakeClock (`@clawtools/core/testing`), plus stepping a scheduler through time: `advance`
 * fires due timers one at a time in time order, setting `now` to each one's time, and awaits
 * `settle` (the scheduler's `idle()`) before and after each, so work a timer starts (a claim, a
 * run, a re-arm that sets the next timer) is done before the next timer fires.
 *
 * The CronStore conformance suite moved to `@clawtools/testing` (`cronStoreConformance`).
 */
export class FakeClock extends CoreFakeClock {
  override advance(ms: number, settle?: () => Promise<void>): Promise<void> {
    return this.advanceTo(this.now() + ms, settle);
  }

  async advanceTo(targetMs: number, settle?: () => Promise<void>): Promise<void> {
    for (;;) {
      if (settle) await settle();
      const due = this.nextDue();
      if (due === undefined || due > targetMs) break;
      this.runNext();
    }
    if (targetMs > this.now()) super.advance(targetMs - this.now());
    if (settle) await settle();
  }
}
