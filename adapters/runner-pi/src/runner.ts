import {
  type AgentRunner,
  createLoopRunner,
  type LoopRunnerOptions,
  type RunTable,
  type RunTools,
  type TrackedRun,
} from "@clawtools/core/contracts";
import { type ModelSpec, modelFailure, resolveModel, withModel } from "@clawtools/models";
import { Agent, type AgentMessage } from "@mariozechner/pi-agent-core";
import { toPiTool } from "./tools.js";

export type { RunTools };

export interface PiRunnerOptions extends LoopRunnerOptions {
  /** The model runs use unless the run (or the session) names another: `provider/model` or a full spec. */
  model: string | ModelSpec;
  env?: NodeJS.ProcessEnv;
}

/**
 * An AgentRunner over pi-agent-core (the loop OpenClaw runs): each run loads the session's
 * transcript from the store, runs the model with a clawtools toolset, and appends every message
 * it produces back to the store as it is produced (core's `createLoopRunner`, which
 * `@clawtools/runner-pi-core` runs with pi 1.5's agent).
 */
export function createPiRunner(options: PiRunnerOptions): AgentRunner & {
  /** The runs held while they run and the outcomes kept after (empty once every run has ended and aged out). */
  readonly table: RunTable<TrackedRun>;
} {
  const base: ModelSpec = typeof options.model === "string" ? { model: options.model } : options.model;
  return createLoopRunner(options, {
    // a run's own model keeps the configured key and endpoint only for the same provider
    resolve: (named) => resolveModel(named ? withModel(base, named) : base, options.env),
    failure: modelFailure,
    agent: (run) =>
      new Agent({
        initialState: {
          systemPrompt: run.systemPrompt,
          model: run.model.model,
          thinkingLevel: "off",
          tools: run.tools.map(toPiTool),
          messages: run.messages as AgentMessage[],
        },
        getApiKey: () => run.model.apiKey ?? "unset",
        sessionId: run.sessionId,
        afterToolCall: run.afterToolCall,
      }),
  });
}
