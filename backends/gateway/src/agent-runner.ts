import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "@clawtools/core/time";
import type { AgentRunner, RunOutcome, StartRunRequest } from "@clawtools/core/contracts";
import type { GatewayClient } from "./client.js";

export interface GatewayAgentRunnerOptions {
  client: GatewayClient;
  clock?: Clock;
}

/** What `agent.wait` answers (the fields read here). */
interface WaitAnswer {
  runId?: string;
  status?: string;
  error?: string;
  endedAt?: number;
  stopReason?: string;
  terminalReply?: { text?: string };
}

interface GatewayRun {
  sessionKey: string;
  /** Set when this runner ended the run: by abort(), or by the request's time limit. */
  endedBy?: "aborted" | "timeout";
  limit?: unknown;
  outcome?: RunOutcome;
}

// agent.wait is answered by the Gateway after timeoutMs; the request itself may take this much longer
const WAIT_SLACK_MS = 15_000;

/**
 * An AgentRunner over the Gateway: the Gateway's agent loop runs the turn with its own model,
 * tools and transcript. `start` is `agent` (deliver:false, the run id as idempotency key, so a
 * retried start runs once), `wait` is `agent.wait`, `abort` is `chat.abort` of that run, and
 * `steer` is `chat.send` into the run's session (the Gateway's queue mode steers a live run).
 * A time limit (`timeoutMs`) is kept here: when it passes the run is aborted and ends `timeout`.
 */
export class GatewayAgentRunner implements AgentRunner {
  readonly runtimes = ["subagent"] as const;
  readonly #client: GatewayClient;
  readonly #clock: Clock;
  readonly #runs = new Map<string, GatewayRun>();

  constructor(options: GatewayAgentRunnerOptions) {
    this.#client = options.client;
    this.#clock = options.clock ?? systemClock;
  }

  async start(request: StartRunRequest): Promise<{ runId: string }> {
    if (!request.sessionKey) throw new Error("gateway agent: a run needs a sessionKey");
    if (!request.message) throw new Error("gateway agent: a run needs a message");
    const runId = randomUUID();
    const params: Record<string, unknown> = {
      message: request.message,
      sessionKey: request.sessionKey,
      deliver: false,
      idempotencyKey: runId,
    };
    if (request.extraSystemPrompt) params.extraSystemPrompt = request.extraSystemPrompt;
    if (request.model) {
      const slash = request.model.indexOf("/");
      if (slash > 0) {
        params.provider = request.model.slice(0, slash);
        params.model = request.model.slice(slash + 1);
      } else params.model = request.model;
    }
    const answer = await this.#client.request<{ runId?: string; status?: string }>("agent", params);
    const id = answer.runId ?? runId;
    const run: GatewayRun = { sessionKey: request.sessionKey };
    this.#runs.set(id, run);
    if (request.timeoutMs && request.timeoutMs > 0)
      run.limit = this.#clock.setTimeout(() => {
        if (run.outcome) return;
        run.endedBy ??= "timeout";
        this.#abort(id, run).catch(() => {});
      }, request.timeoutMs);
    return { runId: id };
  }

  async wait(runId: string, timeoutMs: number): Promise<RunOutcome> {
    const run = this.#runs.get(runId);
    if (!run) return { status: "error", error: `Unknown run: ${runId}` };
    if (run.outcome) return run.outcome;
    const ms = Number.isFinite(timeoutMs) ? Math.max(Math.floor(timeoutMs), 0) : 0;
    const answer = await this.#client.request<WaitAnswer>(
      "agent.wait",
      { runId, timeoutMs: ms },
      { timeoutMs: ms + WAIT_SLACK_MS },
    );
    const outcome = this.#outcome(run, answer);
    if (outcome.status !== "running") {
      run.outcome = outcome;
      if (run.limit !== undefined) this.#clock.clearTimeout(run.limit);
    }
    return outcome;
  }

  async abort(runId: string): Promise<void> {
    const run = this.#runs.get(runId);
    if (!run) throw new Error(`Unknown run: ${runId}`);
    if (run.outcome) return;
    run.endedBy ??= "aborted";
    await this.#abort(runId, run);
  }

  async steer(runId: string, message: string): Promise<boolean> {
    const run = this.#runs.get(runId);
    if (!run || run.outcome || run.endedBy) return false;
    // a zero wait says whether the run is still going (the Gateway answers "timeout" while it is)
    if ((await this.wait(runId, 0)).status !== "running") return false;
    await this.#client.request("chat.send", {
      sessionKey: run.sessionKey,
      message,
      queueMode: "steer",
      deliver: false,
      idempotencyKey: randomUUID(),
    });
    return true;
  }

  #abort(runId: string, run: GatewayRun): Promise<unknown> {
    return this.#client.request("chat.abort", { sessionKey: run.sessionKey, runId });
  }

  /** The Gateway's answer as a RunOutcome; "timeout" without an end is a wait that gave up. */
  #outcome(run: GatewayRun, answer: WaitAnswer): RunOutcome {
    const reply = answer.terminalReply?.text;
    const withReply = (o: RunOutcome): RunOutcome => (reply ? { ...o, reply } : o);
    if (answer.status === "timeout" && answer.endedAt === undefined) return { status: "running" };
    if (run.endedBy === "timeout")
      return withReply({ status: "timeout", error: "the run's time limit passed" });
    if (run.endedBy === "aborted" || answer.status === "aborted" || answer.stopReason === "aborted")
      return withReply({ status: "aborted" });
    if (answer.status === "ok") return withReply({ status: "ok" });
    if (answer.status === "timeout")
      return withReply({ status: "timeout", error: answer.error ?? "the run timed out" });
    return withReply({
      status: "error",
      error: answer.error ?? `the run ended ${answer.status ?? "without a status"}`,
    });
  }
}
