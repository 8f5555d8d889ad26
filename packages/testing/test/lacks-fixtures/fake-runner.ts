import type { AnyAgentTool } from "@clawtools/core";
import type { AgentRunner, RunOutcome, StartRunRequest } from "@clawtools/core/contracts";
import { delay } from "@clawtools/core/time";
import type { ConformanceModel } from "../../src/index.js";

interface Run {
  message: string;
  steers: string[];
  outcome?: RunOutcome;
  ended: Promise<void>;
  controller: AbortController;
}

/**
 * An in-memory AgentRunner over the suite's model: it steers, runs tools and runs several runs at
 * once, so every step of the suite passes for it. `hangingSteer` makes `steer` into a running run never answer.
 */
export class FakeRunner implements AgentRunner {
  private readonly runs = new Map<string, Run>();
  private n = 0;
  constructor(
    private readonly model: ConformanceModel,
    private readonly tools: AnyAgentTool[],
    private readonly options: { hangingSteer?: boolean } = {},
  ) {}

  async start(request: StartRunRequest): Promise<{ runId: string }> {
    const runId = `fake-run-${++this.n}`;
    const run = { message: request.message, steers: [], controller: new AbortController() } as unknown as Run;
    run.ended = this.loop(run);
    this.runs.set(runId, run);
    return { runId };
  }

  private async loop(run: Run): Promise<void> {
    const aborted = new Promise<"aborted">((resolve) =>
      run.controller.signal.addEventListener("abort", () => resolve("aborted"), { once: true }),
    );
    let toolResults: string[] = [];
    for (;;) {
      const reply = await Promise.race([
        this.model.answer({ userMessages: () => [run.message, ...run.steers], toolResults }),
        aborted,
      ]);
      if (reply === "aborted") {
        run.outcome = { status: "aborted" };
        return;
      }
      if ("text" in reply) {
        run.outcome = { status: "ok", reply: reply.text };
        return;
      }
      const tool = this.tools.find((t) => t.name === reply.toolCall.name);
      const result = await tool!.execute("call-1", reply.toolCall.arguments);
      toolResults = result.content.map((c) => (c.type === "text" ? c.text : ""));
    }
  }

  async wait(runId: string, timeoutMs: number): Promise<RunOutcome> {
    const run = this.runs.get(runId);
    if (!run) return { status: "error", error: `no run ${runId}` };
    const stop = new AbortController();
    await Promise.race([run.ended, delay(timeoutMs, { signal: stop.signal }).catch(() => {})]);
    stop.abort();
    return run.outcome ?? { status: "running" };
  }

  async abort(runId: string): Promise<void> {
    this.runs.get(runId)?.controller.abort();
  }

  async steer(runId: string, message: string): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run || run.outcome) return false;
    if (this.options.hangingSteer) return new Promise<boolean>(() => {});
    run.steers.push(message);
    return true;
  }
}
