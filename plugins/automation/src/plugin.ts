import path from "node:path";
import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  readSectionConfig,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import { type AutomationConfig, AutomationConfigSchema } from "./config.js";
import { type ChannelAnnouncer, CronExecutor, type ExecutorOptions } from "./cron/executor.js";
import type { AgentTurnRunner, Clock, CronStore, LeaderLease } from "./cron/interfaces.js";
import { systemClock } from "./cron/interfaces.js";
import { CronService } from "./cron/service.js";
import { ConfigDocument } from "./gateway/config-doc.js";
import { FileLeaderLease } from "./store/file-lease.js";
import { FileCronStore } from "./store/file-store.js";
import { createCronTool } from "./tools/cron.js";
import { createGatewayTool, type RestartHook, type Updater } from "./tools/gateway.js";

/** A session store as the automation section uses it (structurally `SessionStore` of @clawtools/sessions). */
export type AutomationSessions = NonNullable<ExecutorOptions["sessions"]> & {
  history?(key: string, options?: { limit?: number }): Promise<Array<{ role: string; content: unknown }>>;
};

export interface AppConfigOptions {
  /** The app's configuration object (what `--config` read). */
  config: Record<string, unknown>;
  /** The file it came from; writes go there atomically. Without it writes stay in memory. */
  path?: string;
  /** Its JSON Schema (config.schema.lookup, and validation of every write). */
  schema?: object;
  /** Called with the new configuration after a successful write. */
  onChange?: (config: Record<string, unknown>) => void;
  /** The app's restart hook (gateway restart). */
  restart?: RestartHook;
  /** The app's updater (gateway update.run). */
  updater?: Updater;
}

export interface AutomationPluginOptions extends AutomationConfig {
  /** Where system events and announces land: a SessionStore (`append`, and `get` / `create` when present). */
  sessions?: AutomationSessions;
  /** Runs agentTurn jobs: an AgentRunner (`start`, `wait`). */
  runner?: AgentTurnRunner;
  /** Announces to a channel (`delivery.channel` / `delivery.to`). */
  announcer?: ChannelAnnouncer;
  /** A job store of your own (PostgreSQL, Redis); default `<stateDir>/cron/jobs.json`. */
  store?: CronStore;
  /**
   * One scheduler per cluster when several processes share a store. Default with the embedded
   * store: a lease file beside jobs.json (`<stateDir>/cron/leader.cron.json`); with a store of
   * your own, none unless given.
   */
  lease?: LeaderLease;
  clock?: Clock;
  /** The configuration the gateway tool reads (default: the toolset's `config`, in memory). */
  appConfig?: AppConfigOptions;
}

export const NO_STATE_DIR =
  "no state directory for the cron store (createToolset fills ctx.stateDir from the workspace; or pass store to the automation plugin)";

export interface AutomationPlugin extends ClawtoolsPlugin {
  /** The scheduler for a context's state directory, started (created on first use). */
  cronService(ctx: ToolContext): Promise<CronService>;
}

export function createAutomationPlugin(options: AutomationPluginOptions = {}): AutomationPlugin {
  const { sessions, runner, announcer, store, lease, clock, appConfig, ...inCode } = options;
  const services = new Map<string, Promise<CronService>>();
  const documents = new Map<string, ConfigDocument>();

  const cronService = (ctx: ToolContext): Promise<CronService> => {
    const config = readSectionConfig(ctx, "automation", AutomationConfigSchema, inCode);
    const dir = store ? "(custom store)" : ctx.stateDir ? path.join(ctx.stateDir, "cron") : undefined;
    if (!dir) return Promise.reject(new ToolUnavailableError(NO_STATE_DIR));
    let service = services.get(dir);
    if (!service) {
      const effectiveClock = clock ?? systemClock;
      const executor = new CronExecutor({
        ...(sessions ? { sessions } : {}),
        ...(runner ? { runner } : {}),
        ...(announcer ? { announcer } : {}),
        webhookPolicy: {
          ...(config.webhook?.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
          ...(config.webhook?.allowedHostnames ? { allowedHostnames: config.webhook.allowedHostnames } : {}),
        },
        ...(config.webhook?.attempts ? { webhookAttempts: config.webhook.attempts } : {}),
        ...(config.webhook?.retryDelayMs !== undefined
          ? { webhookRetryDelayMs: config.webhook.retryDelayMs }
          : {}),
        ...(config.webhook?.timeoutMs ? { webhookTimeoutMs: config.webhook.timeoutMs } : {}),
        ...(config.cron?.agentTurnTimeoutSeconds
          ? { agentTurnTimeoutMs: config.cron.agentTurnTimeoutSeconds * 1000 }
          : {}),
        defaultAgentId: config.cron?.defaultAgentId ?? "main",
        clock: effectiveClock,
        // the app's sessions are read by nobody a message wakes (an MCP host's): see NO_CHANNEL
        ...(ctx.laterResults === "pull" ? { laterResults: "pull" as const } : {}),
      });
      const created = new CronService({
        store: store ?? new FileCronStore(dir),
        executor,
        clock: effectiveClock,
        ...(config.cron?.enabled !== undefined ? { enabled: config.cron.enabled } : {}),
        ...(config.cron?.maxConcurrentRuns ? { maxConcurrentRuns: config.cron.maxConcurrentRuns } : {}),
        ...(config.cron?.clusterMaxConcurrentRuns
          ? { clusterMaxConcurrentRuns: config.cron.clusterMaxConcurrentRuns }
          : {}),
        ...(config.cron?.catchUp ? { catchUp: config.cron.catchUp } : {}),
        ...(config.cron?.defaultAgentId ? { defaultAgentId: config.cron.defaultAgentId } : {}),
        ...(config.cron?.leaderLeaseMs ? { leaderTtlMs: config.cron.leaderLeaseMs } : {}),
        ...(config.cron?.claimLeaseMs ? { leaseMs: config.cron.claimLeaseMs } : {}),
        ...(config.cron?.probeMs ? { probeMs: config.cron.probeMs } : {}),
        // processes sharing the state directory elect one scheduler through a file there
        ...(lease ? { lease } : store ? {} : { lease: new FileLeaderLease(dir, effectiveClock) }),
      });
      service = created.start().then(() => created);
      services.set(dir, service);
      // a failed start is reported on the next use, and retried then
      service.catch(() => services.delete(dir));
    }
    return service;
  };

  const documentFor = (ctx: ToolContext): ConfigDocument => {
    const key = appConfig?.path ?? "(memory)";
    let document = documents.get(key);
    if (!document) {
      document = new ConfigDocument({
        initial: appConfig?.config ?? ctx.config ?? {},
        ...(appConfig?.path ? { path: appConfig.path } : {}),
        ...(appConfig?.schema ? { schema: appConfig.schema } : {}),
        ...(appConfig?.onChange ? { onChange: appConfig.onChange } : {}),
      });
      documents.set(key, document);
    }
    return document;
  };

  const cronFactory = (name: string) => (ctx: ToolContext) => {
    // creating the toolset starts the scheduler, so due jobs fire without waiting for a call
    cronService(ctx).catch(() => {});
    return createCronTool(ctx, {
      name,
      service: () => cronService(ctx),
      ...(sessions?.history
        ? { history: (key: string, limit: number) => sessions.history!(key, { limit }) }
        : {}),
    });
  };

  return defineSectionPlugin({
    module: import.meta.url,
    config: inCode,
    description:
      "Automation: cron jobs stored, scheduled and run in-process; the gateway tool over the app's configuration",
    section: "automation",
    configSchema: AutomationConfigSchema,
    tools: () => [
      { name: "cron", factory: cronFactory("cron") },
      // OpenClaw 9.6's name, served wherever cron is (core's catalog lists both; a policy naming one names both)
      { name: "automations", factory: cronFactory("automations") },
      {
        name: "gateway",
        factory: (ctx) => {
          const config = readSectionConfig(ctx, "automation", AutomationConfigSchema, inCode);
          return createGatewayTool(ctx, {
            document: documentFor(ctx),
            ...(appConfig?.schema ? { schema: appConfig.schema } : {}),
            allowConfigWrites: config.gateway?.allowConfigWrites === true,
            allowRestart: config.gateway?.allowRestart === true,
            ...(appConfig?.restart ? { restart: appConfig.restart } : {}),
            ...(appConfig?.updater ? { updater: appConfig.updater } : {}),
          });
        },
      },
    ],
    dispose: async () => {
      const started = [...services.values()];
      services.clear();
      for (const service of started) await (await service.catch(() => undefined))?.stop();
    },
    members: { cronService },
  });
}

export const automationPlugin = createAutomationPlugin();
export default automationPlugin;
