import type { AgentTurnRunner } from "@clawtools/automation";
import {
  capabilityOf,
  type ClawtoolsPlugin,
  createToolset,
  SESSION_SERVICE,
  type ToolContext,
  type Toolset,
  type ToolsetPolicy,
  ToolRegistry,
} from "@clawtools/core";
import { resolveSubagentToolPolicy } from "@clawtools/core/policy";
import type { ToolPolicy } from "@clawtools/core/catalog";
import type { SessionsPlugin } from "@clawtools/sessions";
import type { AcpHarness } from "./config.js";
import { BundleConfigError } from "./errors.js";

/** Why an agentTurn cron job does not run when no model is configured (its run log's error). */
export const NO_MODEL_FOR_AGENT_TURN =
  'no model for agentTurn jobs: set one with --model <provider>/<id> or "model" in the config file (systemEvent jobs run without one)';

/** The runner automation gets without a model: every agent turn is refused, naming what to set. */
const refusingRunner: AgentTurnRunner = {
  start: () => Promise.reject(new Error(NO_MODEL_FOR_AGENT_TURN)),
  wait: async () => ({ status: "error", error: NO_MODEL_FOR_AGENT_TURN }),
};

/**
 * The automation section over the sessions section's own store and runner (one of each, shared):
 * system events and announces land in the sessions' transcripts, agentTurn jobs run on the
 * sub-agents' runner (refused, naming what to set, when no model is configured). Cron jobs stay
 * under the state directory (`<stateDir>/cron`). Undefined when either section is missing.
 */
export async function automationOnSessions(options: {
  sessions: ClawtoolsPlugin | undefined;
  context: ToolContext;
  /** The app's configuration and its schema, for the gateway tool (config.schema.lookup). */
  appConfig?: import("@clawtools/automation").AppConfigOptions;
  /** `--store`: jobs and the leader lease there instead of `<stateDir>/cron`. */
  cron?: Pick<import("@clawtools/automation").AutomationPluginOptions, "store" | "lease">;
}): Promise<ClawtoolsPlugin | undefined> {
  // the sessions section declares its service; nothing is guessed from the plugin's members
  const serviceFor = capabilityOf(options.sessions, SESSION_SERVICE);
  if (!serviceFor) return undefined;
  let automation: typeof import("@clawtools/automation");
  try {
    automation = await import("@clawtools/automation");
  } catch {
    return undefined; // automation is not installed: nothing to wire
  }
  const service = serviceFor(options.context);
  // the CLI's agent is the default one: "main" jobs land in the MCP client's session
  // (`automation.cron.defaultAgentId` in the config file still wins)
  const configured = (options.context.config?.automation as { cron?: object } | undefined)?.cron;
  return automation.createAutomationPlugin({
    sessions: service.store,
    runner: service.runner ?? refusingRunner,
    cron: { ...(options.context.agentId ? { defaultAgentId: options.context.agentId } : {}), ...configured },
    ...(options.appConfig ? { appConfig: options.appConfig } : {}),
    ...(options.cron?.store ? { store: options.cron.store } : {}),
    ...(options.cron?.lease ? { lease: options.cron.lease } : {}),
  });
}

/** What the operator chose for the server (profile, `--allow` / `--deny`): it bounds every run. */
export interface OperatorPolicy {
  profile?: string;
  allow?: string[];
  deny?: string[];
}

/**
 * The policy of a run the server starts on the operator's behalf in a session at `depth` (0: a
 * top-level session's cron turn or agent-to-agent follow-up; ≥1: a sub-agent): the operator's
 * profile and allow/deny, then core's sub-agent deny lists for that depth. Every layer must allow
 * a tool, so a child is never offered a tool its parent's operator or core's lists refuse.
 */
export function runPolicy(operator: OperatorPolicy, depth: number, maxSpawnDepth?: number): ToolsetPolicy {
  const global: ToolPolicy = {
    ...(operator.allow ? { allow: operator.allow } : {}),
    ...(operator.deny ? { deny: operator.deny } : {}),
  };
  const subagent = resolveSubagentToolPolicy({
    depth,
    ...(maxSpawnDepth !== undefined ? { maxSpawnDepth } : {}),
  });
  return {
    ...(operator.profile ? { profile: operator.profile } : {}),
    ...(operator.allow || operator.deny ? { global } : {}),
    ...(subagent ? { subagent } : {}),
  };
}

/**
 * The toolset of one run in `sessionKey`: the installed tools (a runtime of its own, so killing
 * the run kills the processes it started), as a non-owner, under `runPolicy` for the session's
 * depth in the store.
 */
export function runToolset(options: {
  plugins: ClawtoolsPlugin[];
  runtime?: ClawtoolsPlugin;
  context: ToolContext;
  sessionKey: string;
  depth: number;
  operator: OperatorPolicy;
}) {
  const registry = new ToolRegistry();
  for (const p of options.plugins) if (p.section !== "runtime") registry.registerPlugin(p);
  const maxSpawnDepth = (options.context.config?.sessions as { maxSpawnDepth?: number } | undefined)
    ?.maxSpawnDepth;
  return createToolset({
    registry,
    plugins: options.runtime ? [options.runtime] : [],
    // a run's own loop is woken by its children's announces: the push wording is true there
    context: { ...options.context, sessionKey: options.sessionKey, laterResults: "push" },
    policy: runPolicy(options.operator, options.depth, maxSpawnDepth),
    senderIsOwner: false,
  });
}

/** A model whose provider nobody knows (no endpoint, no `<PROVIDER>_BASE_URL`) fails the start, not the first spawn. */
async function checkModelProvider(model: string): Promise<void> {
  const { resolveModel, isModelConfigError } = await import("@clawtools/models");
  try {
    resolveModel({ model });
  } catch (error) {
    // a missing key is reported when a sub-agent runs (the key may be set for that run's provider later)
    if (isModelConfigError(error) && /no endpoint known/.test(error.message))
      throw new BundleConfigError(error.message);
  }
}

/**
 * The sessions section wired to a pi-agent-core runner on `model`: each sub-agent run gets the
 * bundle's tools in a toolset of its own (`toolset`: with its own runtime plugin, so killing the
 * run kills the processes it started), as a non-owner under the bundle's policy and core's
 * sub-agent deny lists for its depth (`runPolicy`). With `acp`, runtime=acp
 * children run in that ACP harness (started over stdio in the workspace) and every other session
 * on the model. Loaded only when one of them is configured, so a plain `serve` pays nothing.
 */
export async function sessionsWithRunner(options: {
  model?: string;
  acp?: AcpHarness;
  /**
   * The toolset of a run in `sessionKey` at `depth`, from the bundle: its plugins under its
   * policy and core's sub-agent rules (`runToolset`).
   */
  toolset: (sessionKey: string, depth: number) => Promise<Toolset>;
  context: () => ToolContext;
  /** `--store`: sessions and runs there instead of under the state directory. */
  stores?: Pick<import("@clawtools/sessions").SessionsPluginOptions, "store" | "runs">;
}): Promise<SessionsPlugin | undefined> {
  if (options.model) await checkModelProvider(options.model);
  let sessions: typeof import("@clawtools/sessions");
  let runnerPi: typeof import("@clawtools/runner-pi") | undefined;
  let runnerAcp: typeof import("@clawtools/runner-acp") | undefined;
  try {
    sessions = await import("@clawtools/sessions");
    if (options.model) runnerPi = await import("@clawtools/runner-pi");
    if (options.acp) runnerAcp = await import("@clawtools/runner-acp");
  } catch {
    return undefined; // sessions or a runner is not installed: the section stays as discovered
  }
  const { model, acp } = options;
  const harnesses: Array<import("@clawtools/runner-acp").AcpRunner> = [];
  const plugin: SessionsPlugin = sessions.createSessionsPlugin({
    ...(model ? { defaultModel: model } : {}),
    ...(options.stores?.store ? { store: options.stores.store } : {}),
    ...(options.stores?.runs ? { runs: options.stores.runs } : {}),
    runner: ({ store }) => {
      const loop =
        model && runnerPi
          ? runnerPi.createPiRunner({
              store,
              model,
              tools: async (sessionKey) => {
                // the depth the store records for the session (0 for a top-level session's turn)
                const depth = (await store.get(sessionKey))?.depth ?? 0;
                const set = await options.toolset(sessionKey, depth);
                return { tools: set.tools, dispose: () => set.dispose() };
              },
            })
          : undefined;
      if (!acp || !runnerAcp) return loop!;
      const workspaceDir = options.context().workspaceDir;
      const harness = runnerAcp.createAcpRunner({
        command: acp.command,
        ...(acp.args ? { args: acp.args } : {}),
        ...(workspaceDir ? { cwd: workspaceDir } : {}),
        store,
      });
      harnesses.push(harness);
      return runnerAcp.withAcpSessions(loop, harness);
    },
  });
  // the harness's agent processes end with the section
  const disposeSessions = plugin.dispose;
  return Object.assign(plugin, {
    dispose: async () => {
      await disposeSessions?.call(plugin);
      await Promise.all(harnesses.splice(0).map((h) => h.dispose()));
    },
  });
}
