import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  packageInfo,
  provide,
  readSectionConfig,
  SESSION_SERVICE,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import { type SessionsConfig, SessionsConfigSchema } from "./config.js";
import { sessionsEnv } from "./context.js";
import type { AgentRunner, RunRegistry, SessionStore } from "./interfaces.js";
import type { LivenessOptions } from "./liveness.js";
import { SessionsService } from "./service.js";
import { transcriptResources } from "./transcript-resources.js";
import { FileRunRegistry } from "./store/file-runs.js";
import { FileSessionStore } from "./store/file-store.js";
import { createSessionStatusTool, createSessionsYieldTool } from "./tools/session-status.js";
import { createSessionsHistoryTool } from "./tools/sessions-history.js";
import { createSessionsListTool } from "./tools/sessions-list.js";
import { createSessionsSendTool } from "./tools/sessions-send.js";
import { createSessionsSpawnTool } from "./tools/sessions-spawn.js";
import { createSubagentsTool } from "./tools/subagents.js";
import { createSessionsYieldWaitTool } from "./tools/sessions-yield-wait.js";

const { version } = packageInfo(import.meta.url);

export const NO_RUNNER =
  "no agent runner: set a model (clawtools serve --model <provider>/<id>, or OPENAI_BASE_URL/OPENAI_API_KEY with --model openai/<id>) or pass createSessionsPlugin({ runner })";

export const NO_YIELD =
  "the agent runner cannot end a turn (it has no onYield); runner-pi and ai-sdk runners can";
export const noLiveRun = (sessionKey: string) =>
  `no run of the sessions runner is live in ${sessionKey}: that session's turns belong to the app's own loop, which this section cannot end`;

export interface SessionsPluginOptions extends SessionsConfig {
  /** Default: the embedded file store under the state directory. */
  store?: SessionStore;
  runs?: RunRegistry;
  /** The agent loop sub-agents run on; built once per store when a function. */
  runner?: AgentRunner | ((deps: { store: SessionStore; runs: RunRegistry }) => AgentRunner);
  /** The model a session without an override runs with (shown by session_status). */
  defaultModel?: string;
  /** Run liveness: heartbeat period and staleness (defaults 10 s and 60 s). */
  liveness?: LivenessOptions;
}

export type SessionsPlugin = ClawtoolsPlugin & {
  /** The service a context's tools use (one per state directory): events, idle(), the store. */
  serviceFor(ctx: ToolContext): SessionsService;
};

export function createSessionsPlugin(options: SessionsPluginOptions = {}): SessionsPlugin {
  const { store, runs, runner, defaultModel, liveness, ...inCode } = options;
  const services = new Map<string, SessionsService>();

  const serviceFor = (ctx: ToolContext): SessionsService => {
    const dir = ctx.stateDir ?? "";
    let service = services.get(dir);
    if (!service) {
      if (!store && !ctx.stateDir)
        throw new ToolUnavailableError("no state directory for the session store (context.stateDir)");
      const s = store ?? new FileSessionStore(ctx.stateDir!);
      const r = runs ?? new FileRunRegistry(ctx.stateDir!);
      const built = typeof runner === "function" ? runner({ store: s, runs: r }) : runner;
      service = new SessionsService(s, r, built, undefined, liveness);
      services.set(dir, service);
    }
    return service;
  };
  return defineSectionPlugin({
    module: import.meta.url,
    description:
      "Sessions: sub-agents and cross-session messaging over a store, a run registry and an agent runner",
    section: "sessions",
    configSchema: SessionsConfigSchema,
    config: inCode,
    tools: (config) => {
      const envFor = (ctx: ToolContext) => sessionsEnv(ctx, serviceFor(ctx), config.read(ctx));
      const needsRunner = (ctx: ToolContext) => {
        const env = envFor(ctx);
        if (!env.service.runner) throw new ToolUnavailableError(NO_RUNNER);
        return env;
      };
      return [
        { name: "sessions_list", factory: (ctx) => createSessionsListTool(envFor(ctx)) },
        { name: "sessions_history", factory: (ctx) => createSessionsHistoryTool(envFor(ctx)) },
        { name: "sessions_send", factory: (ctx) => createSessionsSendTool(needsRunner(ctx)) },
        { name: "sessions_spawn", factory: (ctx) => createSessionsSpawnTool(needsRunner(ctx)) },
        {
          name: "sessions_yield",
          factory: (ctx) => {
            const env = needsRunner(ctx);
            // a host no push reaches gets a yield that waits for a child and returns its answer
            if (env.pull) return createSessionsYieldWaitTool(env);
            const runner = env.service.runner!;
            if (!runner.onYield) throw new ToolUnavailableError(NO_YIELD);
            // offered only inside a run this runner can end (never to a client whose loop is its own)
            if (runner.canYield && !runner.canYield(env.callerKey))
              throw new ToolUnavailableError(noLiveRun(env.callerKey));
            return createSessionsYieldTool(env);
          },
          meta: {
            label: "Yield turn",
            description: "End this turn and wait for sub-agent results",
            sectionId: "sessions",
            // served wherever sessions_spawn is (OpenClaw's coding profile has both)
            profiles: ["coding"],
          },
        },
        { name: "subagents", factory: (ctx) => createSubagentsTool(envFor(ctx)) },
        {
          name: "session_status",
          factory: (ctx) =>
            createSessionStatusTool(envFor(ctx), { version, ...(defaultModel ? { defaultModel } : {}) }),
        },
      ];
    },
    dispose: async () => {
      // runs still going are stopped; their requesters learn nothing more from this process
      // (only this process's: a run another live process holds is that process's to end)
      for (const service of services.values()) {
        service.close();
        for (const run of await service.runs.list().catch(() => []))
          if (run.status === "running" && service.owns(run)) await service.kill(run.runId).catch(() => {});
      }
      services.clear();
    },
    // the transcripts the caller's session may read, under the section's visibility rule
    resources: transcriptResources(serviceFor, (ctx) =>
      readSectionConfig(ctx, "sessions", SessionsConfigSchema, inCode),
    ),
    // an app wires cron onto this section's store and runner through the declared capability
    capabilities: [provide(SESSION_SERVICE, serviceFor)],
    members: { serviceFor },
  });
}

export const sessionsPlugin = createSessionsPlugin();
export default sessionsPlugin;
