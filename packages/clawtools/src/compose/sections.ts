import type { ClawtoolsPlugin, Toolset, ToolContext } from "@clawtools/core";
import { isLazySectionPlugin, lazySectionPlugin } from "../lazy.js";
import { SECTION_MANIFESTS } from "../manifests/index.js";
import type { ResolvedBundleConfig } from "./config.js";
import { type BundleStore, sessionsOnStore } from "./store.js";
import { automationOnSessions, sessionsWithRunner } from "./subagents.js";

/** Which implementation serves each section, as describe() reports it. */
export type SectionImplementations = Record<string, string>;

export interface ChosenSections {
  /** One plugin per section, the implementation the config asks for. */
  plugins: Map<string, ClawtoolsPlugin>;
  /** Plugins a chosen one stands in for: never registered, disposed with the bundle. */
  unused: ClawtoolsPlugin[];
  implementations: SectionImplementations;
}

/**
 * Chooses each section's implementation once, before anything is registered: sessions on a
 * runner (model, ACP) and/or the store, cron over the sessions' store and runner, and with a
 * Gateway the nodes, sessions, cron and messaging through it. Sub-agents and cron turns get their
 * toolsets from `runToolset` (the bundle's registered plugins under its policy, when they run).
 */
export async function chooseSections(input: {
  discovered: readonly ClawtoolsPlugin[];
  config: ResolvedBundleConfig;
  context: ToolContext;
  store: BundleStore | undefined;
  /** A sub-agent's or cron turn's toolset, from the bundle (its plugins, under its policy). */
  runToolset: (sessionKey: string, depth: number) => Promise<Toolset>;
  appConfig: import("@clawtools/automation").AppConfigOptions;
  /** Connect to the Gateway (false: the embedded sections are listed instead). */
  connect: boolean;
  clientVersion?: string;
  warn: (line: string) => void;
}): Promise<ChosenSections> {
  const { config, context, store } = input;
  const plugins = new Map<string, ClawtoolsPlugin>();
  for (const p of input.discovered) if (p.section) plugins.set(p.section, p);
  const implementations: SectionImplementations = {};
  for (const section of plugins.keys()) implementations[section] = "embedded";
  const unused: ClawtoolsPlugin[] = [];
  const choose = (section: string, plugin: ClawtoolsPlugin, how: string) => {
    const before = plugins.get(section);
    if (before && before !== plugin) unused.push(before);
    plugins.set(section, plugin);
    implementations[section] = how;
  };
  const onStore = store ? ` on ${store.location}` : "";
  const { model, acp } = config;
  if (model || acp) {
    // sub-agents need a runner: sessions wired to the model (runtime=subagent) and the ACP
    // harness (runtime=acp), each run's toolset taken from the bundle under its policy
    const wired = await sessionsWithRunner({
      ...(model ? { model } : {}),
      ...(acp ? { acp } : {}),
      toolset: input.runToolset,
      context: () => context,
      ...(store ? { stores: { store: store.sessions, runs: store.runs } } : {}),
    });
    if (wired)
      choose(
        "sessions",
        wired,
        `embedded, sub-agents on ${[model, acp ? `ACP ${acp.command}` : undefined].filter(Boolean).join(" and ")}${onStore}`,
      );
  } else if (store && plugins.has("sessions")) {
    const wired = sessionsOnStore(store);
    if (wired) choose("sessions", wired, `embedded${onStore}`);
  }
  const sessions = plugins.get("sessions");
  const discoveredAutomation = plugins.get("automation");
  const cronStore = store ? { cron: { store: store.cron, lease: store.lease } } : {};
  if (discoveredAutomation) {
    // cron runs on the sessions' store and runner: one of each, shared
    const manifest = SECTION_MANIFESTS.automation;
    const how = `embedded, agent turns on ${model ?? "no model"}${onStore}`;
    if (
      manifest &&
      isLazySectionPlugin(discoveredAutomation) &&
      (!sessions || isLazySectionPlugin(sessions))
    ) {
      // neither section is imported until cron is called or the scheduler starts
      const wire = async (): Promise<ClawtoolsPlugin> => {
        const real = sessions && isLazySectionPlugin(sessions) ? await sessions.load() : sessions;
        const wired = await automationOnSessions({
          sessions: real,
          context,
          appConfig: input.appConfig,
          ...cronStore,
        });
        return wired ?? discoveredAutomation.load();
      };
      choose("automation", lazySectionPlugin(manifest, wire), how);
    } else {
      const automation = await automationOnSessions({
        sessions: sessions && isLazySectionPlugin(sessions) ? await sessions.load() : sessions,
        context,
        appConfig: input.appConfig,
        ...cronStore,
      });
      if (automation) choose("automation", automation, how);
    }
  }
  if (config.gateway && input.connect) {
    // the Gateway's paired nodes stand in for the embedded node host, its cron.* for the
    // embedded scheduler, its sessions and channels for the embedded ones; the rest stays embedded
    const { gatewayPlugins } = await import("./gateway.js");
    const through = await gatewayPlugins(
      {
        gateway: config.gateway,
        ...(config.gatewayToken ? { gatewayToken: config.gatewayToken } : {}),
        ...(input.clientVersion ? { clientVersion: input.clientVersion } : {}),
      },
      context,
      [...plugins.values()],
      input.warn,
    );
    const how = `through the Gateway ${config.gateway}`;
    choose("nodes", through.nodes, how);
    if (through.sessions) choose("sessions", through.sessions, how);
    if (through.automation) choose("automation", through.automation, how);
    if (through.messaging) choose("messaging", through.messaging, how);
  }
  return { plugins, unused, implementations };
}
