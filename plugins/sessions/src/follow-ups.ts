import type { SessionsService } from "./service.js";

/**
 * Work the tools leave running after they return (the sessions_send agent-to-agent exchange, the
 * removal of a spawn's attachments when its run ends), per service, so tests and shutdown can
 * wait for it.
 */
const pending = new WeakMap<SessionsService, Set<Promise<unknown>>>();

export function trackFollowUp(service: SessionsService, work: Promise<unknown>): void {
  let set = pending.get(service);
  if (!set) {
    set = new Set();
    pending.set(service, set);
  }
  const settled = work.then(
    () => {},
    () => {},
  );
  set.add(settled);
  void settled.then(() => set.delete(settled));
}

/** Resolves when every run and every follow-up of the service has ended. */
export async function followUpsIdle(service: SessionsService): Promise<void> {
  for (;;) {
    await service.idle();
    const set = pending.get(service);
    if (!set || set.size === 0) return;
    await Promise.all([...set]);
  }
}
