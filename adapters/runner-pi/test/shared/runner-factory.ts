import type { AnyAgentTool } from "@clawtools/core";
import type { AgentRunner, RunTable, SessionStore, TrackedRun } from "@clawtools/core/contracts";

/**
 * What the shared runner tests need of a runner: the options every clawtools runner takes
 * (store, model, per-run tools), so the same cases run on each runner without one runner's
 * package depending on another's.
 */
export interface SharedRunnerOptions {
  store: SessionStore;
  model: { model: string; baseUrl: string; apiKey: string };
  tools?: (sessionKey: string) => { tools: AnyAgentTool[]; dispose?(): Promise<void> };
}

export type MakeRunner = (options: SharedRunnerOptions) => AgentRunner & {
  readonly table: RunTable<TrackedRun>;
};

/** How a shared suite is named and whether it runs here (a runner's engines may rule this Node out). */
export interface SharedSuiteOptions {
  title: string;
  skip?: boolean;
}
