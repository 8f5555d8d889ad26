import type { GatewayClient } from "./client.js";

/** Paging of `cron.list` / `cron.runs`, as the cron tool passes it. */
export interface CronPage {
  offset?: number;
  limit?: number;
}

const PAGE_KEYS = ["offset", "limit"] as const;
const page = (options: CronPage): CronPage => {
  const out: CronPage = {};
  for (const key of PAGE_KEYS) if (options[key] !== undefined) out[key] = options[key];
  return out;
};

/**
 * The cron tool's service, forwarded to the Gateway's `cron.*` and `wake` methods. The Gateway
 * keeps, schedules and runs the jobs; nothing is stored or scheduled in this process. Its
 * method set matches the embedded `CronService` the automation section's cron tool calls, so that
 * tool (schema, argument recovery, errors) works unchanged over a Gateway. The Gateway's
 * refusals (`INVALID_REQUEST invalid cron.add params: …`) reach the caller as `GatewayError`s.
 */
export class GatewayCron {
  readonly #client: GatewayClient;

  constructor(options: { client: GatewayClient }) {
    this.#client = options.client;
  }

  status(): Promise<unknown> {
    return this.#client.request("cron.status", {});
  }

  list(options: { includeDisabled?: boolean } & CronPage = {}): Promise<unknown> {
    // compact summaries, as OpenClaw 9.6's own cron tool asks for them (cron.get has the full job)
    return this.#client.request("cron.list", {
      compact: true,
      ...(options.includeDisabled ? { includeDisabled: true } : {}),
      ...page(options),
    });
  }

  get(id: string): Promise<unknown> {
    return this.#client.request("cron.get", { id });
  }

  /**
   * The job as given. The caller's agent and session (the embedded service's defaults) are not
   * filled in: they are this app's names, which the Gateway's agents need not share (it answers
   * `UNAVAILABLE cron job agent is unavailable: <id>` for an agent it does not have).
   */
  add(job: Record<string, unknown>, _defaults?: { agentId?: string; sessionKey?: string }): Promise<unknown> {
    return this.#client.request("cron.add", job);
  }

  update(id: string, patch: Record<string, unknown>): Promise<unknown> {
    return this.#client.request("cron.update", { id, patch });
  }

  async remove(id: string): Promise<{ ok: true; removed: boolean }> {
    const answer = (await this.#client.request("cron.remove", { id })) as { removed?: unknown };
    return { ok: true, removed: answer?.removed === true };
  }

  run(id: string, mode: "due" | "force" = "force"): Promise<unknown> {
    return this.#client.request("cron.run", { id, mode });
  }

  runs(id: string, options: CronPage = {}): Promise<unknown> {
    return this.#client.request("cron.runs", { scope: "job", id, ...page(options) });
  }

  /** A system event for the agent's main session, delivered by the Gateway's next heartbeat run. */
  async wake(text: string, agentId?: string): Promise<{ ok: true }> {
    await this.#client.request("wake", { mode: "now", text, ...(agentId ? { agentId } : {}) });
    return { ok: true };
  }
}
