import type {
  ConformanceMessage,
  ConformanceSession,
  SessionStoreUnderTest,
} from "../../src/sessions-conformance-types.js";

/**
 * An in-memory SessionStore that does everything the SessionStore suite asks; `ignoresIdempotency`
 * makes it append again under a key it has seen.
 */
export class FakeStore implements SessionStoreUnderTest {
  constructor(private readonly options: { ignoresIdempotency?: boolean } = {}) {}
  private readonly sessions = new Map<string, ConformanceSession>();
  private readonly transcripts = new Map<string, ConformanceMessage[]>();
  private readonly appended = new Set<string>();
  private last = 0;
  private n = 0;

  /** A time later than any given before, so newest-first has no ties. */
  private now(): number {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }

  async list(filter: { agentId?: string; updatedSince?: number } = {}) {
    return [...this.sessions.values()]
      .filter((e) => !filter.agentId || e.agentId === filter.agentId)
      .filter((e) => filter.updatedSince === undefined || e.updatedAt >= filter.updatedSince)
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async get(key: string) {
    return this.sessions.get(key);
  }

  async resolve(ref: { key?: string; sessionId?: string; label?: string; agentId?: string }) {
    if (ref.key) return this.sessions.get(ref.key);
    const all = [...this.sessions.values()];
    if (ref.sessionId) return all.find((e) => e.sessionId === ref.sessionId);
    return all.find((e) => e.label === ref.label && (!ref.agentId || e.agentId === ref.agentId));
  }

  async create(entry: { key: string; agentId: string; label?: string; spawnedBy?: string; depth?: number }) {
    const existing = this.sessions.get(entry.key);
    if (existing) return existing;
    const at = this.now();
    const made: ConformanceSession = { ...entry, sessionId: `s-${++this.n}`, createdAt: at, updatedAt: at };
    this.sessions.set(entry.key, made);
    return made;
  }

  async patch(key: string, patch: { label?: string; model?: string }) {
    const entry = this.sessions.get(key);
    if (!entry) throw new Error(`no session ${key}`);
    const next: ConformanceSession = { ...entry, updatedAt: this.now() };
    for (const [field, value] of Object.entries(patch) as [keyof typeof patch, string | undefined][])
      if (value === undefined) delete next[field];
      else next[field] = value;
    this.sessions.set(key, next);
    return next;
  }

  async delete(key: string) {
    this.transcripts.delete(key);
    return this.sessions.delete(key);
  }

  async append(key: string, messages: never[], options: { idempotencyKey?: string } = {}) {
    if (!this.sessions.has(key)) throw new Error(`no session ${key}`);
    if (options.idempotencyKey && !this.options.ignoresIdempotency) {
      if (this.appended.has(options.idempotencyKey)) return false;
      this.appended.add(options.idempotencyKey);
    }
    this.transcripts.set(key, [...(this.transcripts.get(key) ?? []), ...(messages as ConformanceMessage[])]);
    return true;
  }

  async history(key: string, options: { limit?: number } = {}) {
    const all = this.transcripts.get(key) ?? [];
    return options.limit ? all.slice(-options.limit) : all;
  }
}
