import {
  type AgentRunner,
  createLoopRunner,
  type LoopRunnerOptions,
  type RunTable,
  type RunTools,
  type SessionRun,
} from "@clawtools/core/contracts";
import { type ModelSpec, modelFailure, resolveModel, withModel } from "@clawtools/models";
import { Agent, type AgentMessage } from "@earendil-works/pi-agent-core";
import type { Api, Model } from "@earendil-works/pi-ai";
import { streamSimple } from "@earendil-works/pi-ai/compat";
import { toPiCoreTool } from "./tools.js";

export type { RunTools };

export interface PiCoreRunnerOptions extends LoopRunnerOptions {
  /** The model runs use unless the run (or the session) names another: `provider/model` or a full spec. */
  model: string | ModelSpec;
  env?: NodeJS.ProcessEnv;
}

/**
 * An AgentRunner over @earendil-works/pi-agent-core 1.5 (pi's loop after its move; Node >= 22.19):
 * each run loads the session's transcript from the store, runs the model with a clawtools toolset
 * whose `details` travel as pi's structured results, and appends every message it produces back
 * to the store as it is produced, in the same transcript format as `@clawtools/runner-pi` (both
 * are core's `createLoopRunner`; only the agent they build differs).
 */
/** pi-agent-core 1.5's own floor: said when the runner is made, so a Node 20 install stays quiet. */
function requireNode2219(): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 19))
    throw new Error(
      `@clawtools/runner-pi-core needs Node >= 22.19 (pi-agent-core 1.5), this is v${process.versions.node}: use @clawtools/runner-pi on Node 20`,
    );
}

export function createPiCoreRunner(options: PiCoreRunnerOptions): AgentRunner & {
  /** The runs held while they run and the outcomes kept after (empty once every run has ended and aged out). */
  readonly table: RunTable<SessionRun>;
} {
  requireNode2219();
  const base: ModelSpec = typeof options.model === "string" ? { model: options.model } : options.model;
  return createLoopRunner(options, {
    // a run's own model keeps the configured key and endpoint only for the same provider
    resolve: (named) => resolveModel(named ? withModel(base, named) : base, options.env),
    failure: modelFailure,
    agent: (run) =>
      new Agent({
        initialState: {
          systemPrompt: run.systemPrompt,
          // @clawtools/models describes the endpoint in the fields both pi-ai majors read
          model: run.model.model as unknown as Model<Api>,
          thinkingLevel: "off",
          tools: run.tools.map(toPiCoreTool),
          messages: run.messages as AgentMessage[],
        },
        streamFn: streamSimple,
        getApiKey: () => run.model.apiKey ?? "unset",
        sessionId: run.sessionId,
        afterToolCall: run.afterToolCall,
      }),
  });
}
