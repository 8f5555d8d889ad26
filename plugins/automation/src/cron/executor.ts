import type { CronDelivery, CronJob } from "./types.js";
import { postCronWebhook } from "./webhook-post.js";
import { cronCompletionEvent, mainSessionKey, NO_CHANNEL, NO_DELIVERY_TARGET } from "./completion-event.js";
import type { DeliveryResult, ExecutorOptions, RunResult } from "./executor-types.js";

export type { ChannelAnnouncer, DeliveryResult, ExecutorOptions, RunResult } from "./executor-types.js";

export {
  BEGIN_RESULT,
  cronCompletionEvent,
  END_RESULT,
  mainSessionKey,
  NO_CHANNEL,
  NO_DELIVERY_TARGET,
} from "./completion-event.js";

/**
 * The slot a run fires: the scheduled time it is due for, or (a forced run before its time) the
 * run's own start. A run cut off by a crash and run again fires the same slot, so its effects
 * (the system event, the announce, the webhook's `idempotency-key`) carry the same key and a
 * repeat is dropped where the effect was already recorded.
 */
export function runSlot(job: CronJob, runAtMs: number): number {
  const due = job.state.nextRunAtMs;
  return due !== undefined && due <= runAtMs ? due : runAtMs;
}

/** Runs a job's payload through the sessions interfaces and delivers the outcome. */
/** How many session keys an executor remembers as existing before it starts over. */
const KNOWN_SESSIONS_MAX = 1_000;

export class CronExecutor {
  /** Sessions this executor made or saw: an event to one is appended without reading it first. */
  private readonly knownSessions = new Set<string>();

  constructor(private readonly options: ExecutorOptions) {}

  private agentOf(job: CronJob): string {
    return job.agentId ?? this.options.defaultAgentId;
  }

  /** The session a run lands in: main, a fresh isolated one per run, the creating session, or the named one. */
  sessionKeyFor(job: CronJob, runId: string): string {
    const agentId = this.agentOf(job);
    const target = job.sessionTarget;
    if (target === "main") return mainSessionKey(agentId);
    if (target === "isolated") return `agent:${agentId}:cron:${job.id}:run:${runId}`;
    if (target === "current") return job.sessionKey ?? mainSessionKey(agentId);
    const id = target.slice("session:".length);
    return id.startsWith("agent:") ? id : `agent:${agentId}:${id}`;
  }

  private async ensureSession(key: string, agentId: string): Promise<void> {
    const sessions = this.options.sessions;
    if (!sessions?.get || !sessions.create) return;
    if (!(await sessions.get(key))) await sessions.create({ key, agentId });
    // a session seen once is taken to exist (no read before each event); `appendEvent` makes it
    // again if it was deleted since. Bounded: isolated runs each have a session of their own
    if (this.knownSessions.size >= KNOWN_SESSIONS_MAX) this.knownSessions.clear();
    this.knownSessions.add(key);
  }

  /** Appends to a session this executor made or saw; made again (once) when it is gone meanwhile. */
  private async appendEvent(
    key: string,
    agentId: string,
    message: Parameters<NonNullable<ExecutorOptions["sessions"]>["append"]>[1],
    options: { idempotencyKey: string } | undefined,
  ): Promise<void> {
    const sessions = this.options.sessions!;
    const known = this.knownSessions.has(key) && sessions.get !== undefined && sessions.create !== undefined;
    if (!known) await this.ensureSession(key, agentId);
    try {
      await sessions.append(key, message, options);
    } catch (error) {
      if (!known || !String((error as Error)?.message).startsWith("Session not found")) throw error;
      this.knownSessions.delete(key);
      await this.ensureSession(key, agentId);
      await sessions.append(key, message, options);
    }
  }

  async queueSystemEvent(
    sessionKey: string,
    agentId: string,
    text: string,
    idempotencyKey?: string,
  ): Promise<void> {
    const sessions = this.options.sessions;
    if (!sessions)
      throw new Error(
        "no session store configured for system events (pass sessions to the automation plugin)",
      );
    await this.appendEvent(
      sessionKey,
      agentId,
      [{ role: "user", content: `System: ${text}`, timestamp: this.options.clock.now(), systemEvent: true }],
      idempotencyKey ? { idempotencyKey } : undefined,
    );
  }

  async run(job: CronJob, runId: string, runAtMs: number): Promise<RunResult> {
    const agentId = this.agentOf(job);
    const sessionKey = this.sessionKeyFor(job, runId);
    try {
      if (job.payload.kind === "systemEvent") {
        await this.queueSystemEvent(
          sessionKey,
          agentId,
          job.payload.text,
          `cron:${job.id}:${runSlot(job, runAtMs)}`,
        );
        return { status: "ok", summary: job.payload.text, sessionKey };
      }
      const runner = this.options.runner;
      if (!runner)
        return { status: "error", error: "no agent runner configured for agentTurn jobs", sessionKey };
      await this.ensureSession(sessionKey, agentId);
      const timeoutMs =
        job.payload.timeoutSeconds !== undefined
          ? Math.round(job.payload.timeoutSeconds * 1000)
          : (this.options.agentTurnTimeoutMs ?? 600_000);
      const { runId: agentRunId } = await runner.start({
        sessionKey,
        message: job.payload.message,
        ...(job.payload.model ? { model: job.payload.model } : {}),
        timeoutMs,
      });
      const outcome = await runner.wait(agentRunId, timeoutMs + 5_000);
      const model = job.payload.model;
      if (outcome.status === "ok")
        return { status: "ok", summary: outcome.reply ?? "", sessionKey, ...(model ? { model } : {}) };
      const error =
        outcome.status === "running"
          ? `agent turn still running after ${timeoutMs} ms`
          : (outcome.error ?? `agent turn ${outcome.status}`);
      return {
        status: "error",
        error,
        sessionKey,
        ...(outcome.reply ? { summary: outcome.reply } : {}),
        ...(outcome.status === "timeout" || outcome.status === "running" ? { timedOut: true } : {}),
      };
    } catch (error) {
      return { status: "error", error: error instanceof Error ? error.message : String(error), sessionKey };
    }
  }

  /** Delivers a finished run: none, an announce (a channel, or the job's own session), or a webhook POST. */
  async deliver(
    job: CronJob,
    result: RunResult,
    runAtMs: number,
    durationMs: number,
  ): Promise<DeliveryResult> {
    const delivery: CronDelivery = job.delivery ?? { mode: "none" };
    if (delivery.mode === "none") return { delivered: false, deliveryStatus: "not-requested" };
    const text =
      result.status === "ok"
        ? `Cron job "${job.name}" finished: ${result.summary ?? ""}`.trim()
        : `Cron job "${job.name}" failed: ${result.error ?? "unknown error"}`;
    const agentId = this.agentOf(job);
    try {
      if (delivery.mode === "announce") {
        if (job.payload.kind === "systemEvent" && job.sessionTarget === "main")
          return { delivered: false, deliveryStatus: "not-requested" };
        if (delivery.channel || delivery.to) {
          if (!this.options.announcer)
            throw new Error(
              `no channel announcer configured for delivery to ${delivery.channel ?? ""}:${delivery.to ?? ""}`,
            );
          await this.options.announcer(
            {
              ...(delivery.channel ? { channel: delivery.channel } : {}),
              ...(delivery.to ? { to: delivery.to } : {}),
              ...(delivery.accountId ? { accountId: delivery.accountId } : {}),
            },
            text,
          );
        } else {
          // the session that made the job hears back when someone reads it; a job made outside
          // any session, or sessions nothing wakes (an MCP host's), has nobody to tell, and a
          // failed delivery says so rather than "delivered"
          if (this.options.laterResults === "pull") throw new Error(NO_CHANNEL);
          if (!job.sessionKey) throw new Error(NO_DELIVERY_TARGET);
          const target = job.sessionKey;
          const sessions = this.options.sessions;
          if (!sessions) throw new Error("no session store configured for announces");
          await this.ensureSession(target, agentId);
          const ran = result.sessionKey ? await sessions.get?.(result.sessionKey) : undefined;
          const sessionId = (ran as { sessionId?: unknown } | undefined)?.sessionId;
          await sessions.append(
            target,
            [
              {
                role: "user",
                content: cronCompletionEvent(job, result, {
                  durationMs,
                  ...(typeof sessionId === "string" ? { sessionId } : {}),
                }),
                timestamp: this.options.clock.now(),
                internal: { kind: "completion", runId: `cron:${job.id}:${runAtMs}` },
                cron: { jobId: job.id, runAtMs },
              },
            ],
            { idempotencyKey: `cron-announce:${job.id}:${runSlot(job, runAtMs)}` },
          );
        }
        return { delivered: true, deliveryStatus: "delivered" };
      }
      await this.postWebhook(
        delivery.to ?? "",
        {
          jobId: job.id,
          name: job.name,
          status: result.status,
          ...(result.error ? { error: result.error } : {}),
          ...(result.summary !== undefined ? { summary: result.summary } : {}),
          ...(result.sessionKey ? { sessionKey: result.sessionKey } : {}),
          runAtMs,
          durationMs,
        },
        `cron:${job.id}:${runSlot(job, runAtMs)}`,
      );
      return { delivered: true, deliveryStatus: "delivered" };
    } catch (error) {
      return {
        delivered: false,
        deliveryStatus: "failed",
        deliveryError: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /** POSTs a run's outcome to a webhook (see postCronWebhook: retries, idempotency key, origin-only errors). */
  postWebhook(url: string, body: Record<string, unknown>, idempotencyKey?: string): Promise<void> {
    return postCronWebhook(this.options, url, body, idempotencyKey);
  }
}
