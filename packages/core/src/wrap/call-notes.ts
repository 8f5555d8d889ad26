import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the per-call pipeline decided about one call, for whoever observes it (a server's trace
 * span): `policy` (`allow` / `deny`) and `policy.reason`, `approval` (how an approval ended:
 * `allow-once`, `allow-always`, `remembered`, `deny`, `timeout`, `cancelled`, `unavailable`),
 * `sandbox` (where a command ran: `bwrap`, or `none (…why…)`), `journal.id` (the undo journal
 * entry of the call's changes). Keys are free; these are the ones core and the sections write.
 */
export type CallNotes = Map<string, string>;

const current = new AsyncLocalStorage<CallNotes>();

/** Runs `run` with `notes` collecting what the pipeline notes about the calls made inside it. */
export function runWithCallNotes<T>(notes: CallNotes, run: () => T): T {
  return current.run(notes, run);
}

/** Notes a fact about the current call; a no-op when nobody collects (no `runWithCallNotes` around it). */
export function noteCall(key: string, value: string): void {
  current.getStore()?.set(key, value);
}
