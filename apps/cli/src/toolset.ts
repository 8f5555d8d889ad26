import path from "node:path";
import {
  type ClawtoolsPlugin,
  createToolset,
  getCoreToolDefinition,
  resolveCoreToolProfilePolicy,
  type Toolset,
  type ToolContext,
  ToolRegistry,
} from "@clawtools/core";
import {
  type Clawtools,
  createClawtools,
  isLazySectionPlugin,
  lazySectionPlugin,
  SECTION_MANIFESTS,
  SECTIONS_WITH_STATE,
} from "clawtools";
import type { AcpHarness, CliConfig } from "./config.js";
import { cliConfigSchema } from "./config-schema.js";
import { type CommonOptions, invocationDir } from "./options.js";
import { contextAndConfig, warn } from "./context.js";
import { LateMcpTools } from "./mcp-late-tools.js";
import { mountMcpServers } from "./mcp-servers.js";
import { type NamedPlugin, registerNamedPlugins } from "./plugins.js";
import { type CliStore, describeState, openCliStore, sessionsOnStore, storeCloser } from "./store/open.js";
import { automationOnSessions, sessionsWithRunner } from "./subagents.js";

export { buildContext } from "./context.js";

/**
 * The installed sections, listed from their manifests: a section's code is imported when one of
 * its tools is first called (or, for sections with state, once serve is serving).
 */
export async function loadClawtools(): Promise<Clawtools> {
  return createClawtools({ lazy: true });
}

/**
 * A section the configuration names may build other tools from it than its manifest lists (the
 * message tool's schema follows the configured channels): those are imported before listing.
 */
async function loadConfiguredSections(clawtools: Clawtools, context: ToolContext): Promise<void> {
  await Promise.all(
    clawtools.tools
      .plugins()
      .filter((p) => isLazySectionPlugin(p) && p.section && context.config?.[p.section] !== undefined)
      .map((p) => (isLazySectionPlugin(p) ? p.load() : undefined)),
  );
}

export type CliToolset = Toolset & {
  clawtools: Clawtools;
  context: ToolContext;
  /** The `--config` file's settings beyond sections (serve --http's). */
  config: CliConfig;
  /** The plugins named with `--plugin` or the config file's `plugins`, and mounted MCP servers, with their tools. */
  namedPlugins: Array<{ plugin: ClawtoolsPlugin; spec: string; tools: string[] }>;
  close(): Promise<void>;
  /** Called when `tools` changes (an MCP server that failed at start came back). */
  onToolsChanged(listener: () => void): () => void;
  /**
   * A toolset of its own for one agent session (`serve --http`: one per MCP client): the same
   * plugins and policy under `sessionKey`, with a runtime of its own, so its background processes
   * are its alone and die when it is disposed.
   */
  forSession(sessionKey: string): Promise<SessionToolset>;
  /**
   * The same plugins, policy and session with their tools rooted in another directory (serve
   * following the MCP client's roots); the state directory stays the one the server started with.
   */
  forWorkspace(workspaceDir: string): Toolset & { onToolsChanged(listener: () => void): () => void };
  /** Starts the state of the sections that have some (see SECTIONS_WITH_STATE); errors go to stderr. */
  startState(): Promise<void>;
  /** Where sessions, runs and cron jobs live (serve says it at start). */
  state: string;
};

/**
 * One agent session's toolset (serve --http): its tools follow MCP servers that come back, and
 * `forWorkspace` roots the same session (its runtime, its processes) in another directory.
 */
export type SessionToolset = Toolset & {
  onToolsChanged(listener: () => void): () => void;
  forWorkspace(workspaceDir: string): Toolset & { onToolsChanged(listener: () => void): () => void };
};

/** The toolset a command works with: installed sections, the context, and the policy flags. */
export async function buildToolset(
  options: CommonOptions,
  /** `store`: open `--store` / the config's `store` (serve, call); describe and schema touch no state. */
  defaults: { profile?: string; store?: boolean } = {},
): Promise<CliToolset> {
  const profile = options.profile ?? defaults.profile;
  const clawtools = await loadClawtools();
  let context: ToolContext;
  let config: CliConfig;
  let store: CliStore | undefined;
  try {
    ({ context, config } = contextAndConfig(options, clawtools));
    // the database is reached (or the start fails, naming it) before anything is served
    const storeUrl = defaults.store ? (options.store ?? config.store) : undefined;
    if (storeUrl) {
      store = await openCliStore(storeUrl);
      // registered first, so disposed last: after the sections that write to it
      clawtools.tools.registerPlugin(storeCloser(store));
    }
    await loadConfiguredSections(clawtools, context);
  } catch (error) {
    await clawtools.tools.dispose();
    throw error;
  }
  // plugins the user named: checked, registered, served under every profile
  const here = invocationDir();
  const named: NamedPlugin[] = [
    ...(options.plugin ?? []).map((spec) => ({ spec, base: here, from: "--plugin" })),
    ...config.pluginEntries.map((entry) => ({
      spec: entry.name,
      base: options.config ? path.dirname(path.resolve(here, options.config)) : here,
      from: `--config ${options.config}`,
      ...(entry.config ? { config: entry.config } : {}),
      ...(entry.replaces ? { replaces: [entry.replaces] } : {}),
    })),
  ];
  // the discovered plugins a wired one (or a named OpenClaw plugin) replaces: they stay
  // registered for dispose, but neither the toolset nor sub-agents get their tools
  const replaced = new Set<ClawtoolsPlugin>();
  let namedPlugins: Awaited<ReturnType<typeof registerNamedPlugins>>;
  const late = new LateMcpTools();
  try {
    namedPlugins = await registerNamedPlugins(named, clawtools.tools, context, {
      replaced,
      warn,
      replaces: options.pluginReplaces ?? [],
    });
    namedPlugins.push(
      ...(await mountMcpServers(
        config.mcpServers,
        clawtools.tools,
        options.config ? `--config ${options.config}` : "configuration",
        warn,
        late,
      )),
    );
  } catch (error) {
    await clawtools.tools.dispose();
    throw error;
  }
  const model = typeof context.config?.model === "string" ? context.config.model : undefined;
  const replace = (section: string, wired: ClawtoolsPlugin) => {
    for (const p of clawtools.tools.plugins()) if (p.section === section) replaced.add(p);
    for (const found of clawtools.tools.list().filter((m) => m.sectionId === section))
      clawtools.tools.unregister(found.id);
    clawtools.tools.registerPlugin(wired);
  };
  const acp = context.config?.acp as AcpHarness | undefined;
  let sessions = clawtools.tools.plugins().find((p) => p.section === "sessions");
  if (model || acp) {
    // sub-agents need a runner: the discovered sessions section is replaced by one wired to the
    // model (runtime=subagent) and the ACP harness (runtime=acp)
    const wired = await sessionsWithRunner({
      ...(model ? { model } : {}),
      ...(acp ? { acp } : {}),
      ...(profile ? { profile } : {}),
      ...(options.allow ? { allow: options.allow } : {}),
      ...(options.deny ? { deny: options.deny } : {}),
      plugins: () => clawtools.tools.plugins().filter((p) => !replaced.has(p)),
      context: () => context,
      ...(store ? { stores: { store: store.sessions, runs: store.runs } } : {}),
    });
    if (wired) {
      replace("sessions", wired);
      sessions = wired;
    }
  } else if (store && sessions) {
    const wired = sessionsOnStore(store);
    if (wired) {
      replace("sessions", wired);
      sessions = wired;
    }
  }
  const cronStore = store ? { cron: { store: store.cron, lease: store.lease } } : {};
  const discoveredAutomation = clawtools.tools.plugins().find((p) => p.section === "automation");
  if (discoveredAutomation) {
    // cron runs on the sessions' store and runner: one of each, shared
    // the gateway tool answers config.schema.lookup from the CLI's own configuration schema
    const appConfig = { config: context.config ?? {}, schema: cliConfigSchema(clawtools) };
    const manifest = SECTION_MANIFESTS.automation;
    if (
      manifest &&
      isLazySectionPlugin(discoveredAutomation) &&
      (!sessions || isLazySectionPlugin(sessions))
    ) {
      // neither section is imported until cron is called or serve starts its scheduler
      const lazySessions = sessions;
      const wire = async (): Promise<ClawtoolsPlugin> => {
        const real =
          lazySessions && isLazySectionPlugin(lazySessions) ? await lazySessions.load() : lazySessions;
        const wired = await automationOnSessions({ sessions: real, context, appConfig, ...cronStore });
        return wired ?? discoveredAutomation.load();
      };
      replace("automation", lazySectionPlugin(manifest, wire));
    } else {
      const automation = await automationOnSessions({
        sessions: sessions && isLazySectionPlugin(sessions) ? await sessions.load() : sessions,
        context,
        appConfig,
        ...cronStore,
      });
      if (automation) replace("automation", automation);
    }
  }
  if (options.gateway) {
    // --gateway: the Gateway's paired nodes replace the embedded node host, its cron.* the
    // embedded scheduler; the rest stays embedded
    try {
      const { gatewayPlugins } = await import("./gateway.js");
      const through = await gatewayPlugins(options, context, clawtools, warn);
      replace("nodes", through.nodes);
      if (through.sessions) replace("sessions", through.sessions);
      if (through.automation) replace("automation", through.automation);
      if (through.messaging) replace("messaging", through.messaging);
    } catch (error) {
      await clawtools.tools.dispose();
      throw error;
    }
  }
  // `minimal` admits no plugin tool through its profile (core keeps it to session_status), so
  // with named plugins it is applied as an allowlist layer that adds their tools; so is any
  // profile when a named plugin took a section's place (its core ids would follow the catalog)
  const namedTools = namedPlugins.flatMap((p) => p.tools);
  // a core id a named plugin took over that the profile would not serve
  const tookSection = namedTools.some(
    (name) =>
      getCoreToolDefinition(name) !== undefined &&
      profile !== undefined &&
      !(resolveCoreToolProfilePolicy(profile)?.allow ?? []).includes(name),
  );
  const minimalWithPlugins =
    namedTools.length > 0 &&
    profile !== undefined &&
    resolveCoreToolProfilePolicy(profile) !== undefined &&
    (profile === "minimal" || (tookSection && profile !== "full"));
  const profileTools = (id: string) => [
    ...(resolveCoreToolProfilePolicy(id)?.allow ?? []),
    ...(id === "minimal"
      ? []
      : clawtools.tools
          .list()
          .filter((m) => m.source === "plugin" && (m.profiles as string[]).includes(id))
          .map((m) => m.id)),
  ];
  const assembly = {
    ...(options.provider ? { provider: options.provider } : {}),
    policy: {
      ...(profile && !minimalWithPlugins ? { profile } : {}),
      ...(minimalWithPlugins ? { group: { allow: [...profileTools(profile), ...namedTools] } } : {}),
      ...(options.allow || options.deny
        ? {
            global: {
              ...(options.allow ? { allow: options.allow } : {}),
              ...(options.deny ? { deny: options.deny } : {}),
            },
            globalLabels: { allow: "--allow", deny: "--deny" },
          }
        : {}),
    },
    senderIsOwner: options.owner,
  };
  const toolset = createToolset({ registry: clawtools.tools, context, ...assembly, warn });
  // a server that comes back is served under every profile, through --allow/--deny
  const lateTools = (ctx: ToolContext, quiet?: boolean) => (plugin: ClawtoolsPlugin) => {
    const own = new ToolRegistry();
    own.registerPlugin(plugin);
    const policy = assembly.policy.global ? { global: assembly.policy.global } : {};
    return createToolset({ registry: own, context: ctx, ...assembly, policy, ...(quiet ? {} : { warn }) })
      .tools;
  };
  late.start(toolset.tools, lateTools(context), namedPlugins);
  const forWorkspace = (workspaceDir: string) => {
    const ctx = { ...context, workspaceDir };
    return late.over(
      createToolset({ registry: clawtools.tools, context: ctx, ...assembly }),
      lateTools(ctx, true),
    );
  };
  const forSession = async (sessionKey: string): Promise<SessionToolset> => {
    // the shared plugins, but a runtime of the session's own: its processes, killed on dispose
    const registry = new ToolRegistry();
    const runtime = clawtools.tools.plugins().some((p) => p.section === "runtime")
      ? (await import("@clawtools/runtime")).createRuntimePlugin()
      : undefined;
    for (const p of clawtools.tools.plugins())
      if (!replaced.has(p) && p.section !== "runtime") registry.registerPlugin(p);
    // warnings were printed once, for the server's own toolset
    const own = { ...context, sessionKey };
    const session = createToolset({
      registry,
      ...(runtime ? { plugins: [runtime] } : {}),
      context: own,
      ...assembly,
    });
    // the session's client roots: the same registry (its runtime) with the tools in another directory
    const sessionIn = (workspaceDir: string) => {
      const ctx = { ...own, workspaceDir };
      return late.over(createToolset({ registry, context: ctx, ...assembly }), lateTools(ctx, true));
    };
    return late.over({ ...session, forWorkspace: sessionIn }, lateTools(own, true));
  };
  // sections whose tools start state (cron's scheduler, the sessions' reaper) start it once the
  // server is up, as creating the toolset did before sections loaded lazily
  const startState = async (): Promise<void> => {
    // only the sections the toolset serves a tool of: a profile without cron starts no scheduler
    const names = new Set(toolset.tools.map((t) => t.name));
    const served = clawtools.tools
      .plugins()
      .filter((p) => !replaced.has(p) && p.tools.some((r) => r.names.some((n) => names.has(n))));
    await Promise.all(
      served
        .filter((p) => isLazySectionPlugin(p) && p.section && SECTIONS_WITH_STATE.includes(p.section))
        .map((p) =>
          (isLazySectionPlugin(p) ? p.start() : Promise.resolve()).catch((error: Error) =>
            warn(`clawtools: ${p.section} did not start: ${error.message}`),
          ),
        ),
    );
  };
  return {
    ...toolset,
    get tools() {
      return late.tools;
    },
    onToolsChanged: (listener) => late.onChange(listener),
    clawtools,
    context,
    config,
    namedPlugins,
    forSession,
    forWorkspace,
    startState,
    state: describeState(store, context.stateDir),
    // what the toolset holds, then the plugins the registry loaded (processes, databases…)
    close: async () => {
      await toolset.dispose();
      await clawtools.tools.dispose();
    },
  };
}
