import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BackgroundProcess, localProcessHost, type ProcessHost } from "./host.js";
import { resolveSessionLimits, type SessionLimits } from "./limits.js";
import type { SpawnOptions } from "./session.js";
import { backgroundClock, withTimeout } from "@clawtools/core/time";

export interface ProcessRegistryOptions extends Partial<SessionLimits> {
  /** Where commands start (default: this machine). A call can name another host per spawn. */
  host?: ProcessHost;
}

/**
 * Every process session of a runtime plugin instance. Sessions are scoped (by session key or
 * agent): a scope never sees another's processes. Finished sessions are kept for `limits.retentionMs`.
 */
export class ProcessRegistry {
  private readonly sessions = new Map<string, BackgroundProcess>();
  /** The same sessions by scope: a scope's list costs its own sessions, not every scope's. */
  private readonly byScope = new Map<string, Map<string, BackgroundProcess>>();
  private readonly host: ProcessHost;
  limits: SessionLimits;
  private readonly spawnListeners = new Set<(session: BackgroundProcess) => void>();
  /** Spill directory of sessions started without one (no state dir): a private temp dir. */
  private tempSpillDir: string | undefined;

  /** Limits not given come from OpenClaw's environment variables, else its defaults. */
  constructor(options: ProcessRegistryOptions = {}) {
    const { host, ...limits } = options;
    this.host = host ?? localProcessHost;
    this.limits = resolveSessionLimits(limits);
  }

  /** Starts a command on `host` (default: the registry's) and keeps its handle. */
  spawn(options: SpawnOptions, host: ProcessHost = this.host): BackgroundProcess {
    this.sweep();
    const session = host.spawn({
      maxOutputChars: this.limits.maxOutputChars,
      pendingMaxOutputChars: this.limits.pendingMaxOutputChars,
      spillDir: () => {
        this.tempSpillDir ??= mkdtempSync(path.join(tmpdir(), "clawtools-exec-"));
        return this.tempSpillDir;
      },
      ...options,
    });
    this.sessions.set(session.id, session);
    let scope = this.byScope.get(session.scopeKey);
    if (!scope) {
      scope = new Map();
      this.byScope.set(session.scopeKey, scope);
    }
    scope.set(session.id, session);
    for (const listener of this.spawnListeners) listener(session);
    return session;
  }

  /** Calls `listener` with every session started from now on; returns the unsubscribe. */
  onSpawn(listener: (session: BackgroundProcess) => void): () => void {
    this.spawnListeners.add(listener);
    return () => this.spawnListeners.delete(listener);
  }

  get(scopeKey: string, id: string): BackgroundProcess | undefined {
    this.sweep();
    const session = this.sessions.get(id);
    return session?.scopeKey === scopeKey ? session : undefined;
  }

  /** Running and finished sessions of a scope, newest first. */
  list(scopeKey: string): BackgroundProcess[] {
    this.sweep();
    return [...(this.byScope.get(scopeKey)?.values() ?? [])].sort((a, b) => b.startedAt - a.startedAt);
  }

  /** Forgets a session and removes its spill file. */
  delete(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.dispose();
    this.sessions.delete(id);
    const scope = this.byScope.get(session.scopeKey);
    scope?.delete(id);
    if (scope?.size === 0) this.byScope.delete(session.scopeKey);
  }

  /** Limits for sessions started from now on (configuration read by a tool factory). */
  setLimits(options: Partial<SessionLimits>): void {
    this.limits = resolveSessionLimits(options);
  }

  /** Kills every running session, foreground and background, each with its whole process group. */
  killAll(): void {
    for (const session of this.sessions.values()) session.kill("SIGKILL");
  }

  /**
   * Host shutdown: kills every running session (whole process groups) and resolves once each
   * has exited (at most `timeoutMs`), then forgets them all. Idempotent.
   */
  async dispose(timeoutMs = 5_000): Promise<void> {
    const running = [...this.sessions.values()].filter((s) => s.running);
    this.killAll();
    // a background clock: waiting for the exits never holds the process open by itself
    await withTimeout(Promise.all(running.map((s) => s.exited)), timeoutMs, {
      clock: backgroundClock,
      onTimeout: () => [],
    });
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
    this.byScope.clear();
    if (this.tempSpillDir) rmSync(this.tempSpillDir, { recursive: true, force: true });
    this.tempSpillDir = undefined;
  }

  private lastSweep = 0;

  private sweep(): void {
    const now = Date.now();
    // retention is counted in minutes: looking more than once a second buys nothing
    if (now - this.lastSweep < 1000) return;
    this.lastSweep = now;
    for (const [id, s] of this.sessions) {
      if (!s.running && s.endedAt !== undefined && now - s.endedAt > this.limits.retentionMs) this.delete(id);
    }
  }
}
