import {
  type AnyAgentTool,
  type ClawtoolsPlugin,
  createToolset,
  type Toolset,
  type ToolContext,
  ToolRegistry,
} from "@clawtools/core";
import { redactSecrets, registerSecret, registerSecrets, secretsInDocument } from "@clawtools/core/safety";
import { resolveStateDir } from "@clawtools/core/state";
import { type Journal, journalFor } from "@clawtools/core/journal";
import type { TaskStore } from "@clawtools/core/tasks";
import { existsSync, statSync } from "node:fs";
import {
  type SurfaceableToolset,
  type SurfaceView,
  type ToolSurface,
  withToolSurface,
} from "@clawtools/core/surface";
import { type DiscoveredSection, discoverSections } from "../discover.js";
import { isLazySectionPlugin } from "../lazy.js";
import { SECTIONS_WITH_STATE } from "../manifests/index.js";
import { type BundleConfig, type ResolvedBundleConfig, readBundleConfig } from "./config.js";
import { bundleConfigSchema } from "./config-schema.js";
import { type BundleDescription, describeBundle } from "./describe.js";
import { BundleConfigError } from "./errors.js";
import { LateMcpTools } from "./mcp-late-tools.js";
import { type MountedMcpServer, mountMcpServers } from "./mcp-servers.js";
import { withholdOwnSecrets } from "./own-secrets.js";
import { bundlePolicy } from "./policy.js";
import { type NamedPlugin, registerNamedPlugins } from "./plugins.js";
import { chooseSections } from "./sections.js";
import { type BundleStore, describeState, openBundleStore, storeCloser } from "./store.js";
import { runToolset } from "./subagents.js";

export interface ComposeOptions {
  /** Where relative paths in the config are taken from (default: the current directory). */
  baseDir?: string;
  /** Names the configuration in errors (`--config f.json`; default "configuration"). */
  where?: string;
  /** Warnings (a server that did not start, a key passed unchecked); default: stderr. */
  warn?: (line: string) => void;
  /** List sections from their manifests and import one on its first call (default true). */
  lazy?: boolean;
  /** false: neither the store nor the Gateway is contacted (listing what would be served). */
  connect?: boolean;
  /** Each `plugins` entry's origin in errors and the folder its relative path is taken from. */
  pluginOrigin?: (index: number) => { from: string; base: string } | undefined;
  /**
   * The profile when the configuration names none: `coding`, as `clawtools serve` has it (so the
   * same file composes the same bundle); `null`: no profile step (every tool the rest allows).
   */
  defaultProfile?: string | null;
  /** The version reported to a Gateway. */
  clientVersion?: string;
  /** The session the bundle's tools act in (default `agent:<agentId>:main`). */
  agentId?: string;
  sessionKey?: string;
  /**
   * How results that finish later (a sub-agent's answer) reach the bundle's caller: `push` (the
   * default) for an in-process agent loop woken with them, `pull` for a client no message reaches
   * (an MCP host: `clawtools serve`), which asks for them with `sessions_yield`.
   */
  laterResults?: "push" | "pull";
  /** Other secrets of the caller (serve's `--http` token) withheld from commands the tools run, as the bundle's own are. */
  secrets?: Array<string | undefined>;
  /** How policy messages name the `allow` / `deny` layer (default core's `tools.allow` / `tools.deny`; serve: `--allow` / `--deny`). */
  policyLabels?: { allow: string; deny: string };
}

/** A toolset whose `tools` follow MCP servers that come back after the start. */
export type FollowingToolset = Toolset & { onToolsChanged(listener: () => void): () => void };

/** One agent session's toolset (serve --http: one per MCP client). */
export type SessionToolset = FollowingToolset & {
  forWorkspace(workspaceDir: string): FollowingToolset;
};

/** A named plugin or a mounted MCP server, with its tools. */
export interface BundlePlugin {
  plugin: ClawtoolsPlugin;
  spec: string;
  tools: string[];
}

export interface Bundle extends Toolset {
  /** The assembled tools, ready for any loop (they follow MCP servers that come back). */
  readonly tools: AnyAgentTool[];
  /** What is served, what was left out and why, each tool with its source. */
  describe(): BundleDescription;
  /** Stops what the bundle started: mounted servers, processes, browsers, store connections. */
  close(): Promise<void>;
  context: ToolContext;
  config: ResolvedBundleConfig;
  /** The registry the bundle's plugins are registered in, each section once. */
  registry: ToolRegistry;
  sections: DiscoveredSection[];
  /** Named plugins and mounted MCP servers. */
  namedPlugins: BundlePlugin[];
  /** Where sessions, runs and cron jobs live. */
  state: string;
  /** MCP tasks in the PostgreSQL store (`store`); without one, `serve` keeps them under the state dir. */
  taskStore?: TaskStore;
  onToolsChanged(listener: () => void): () => void;
  /** The same plugins and policy in another session, with a runtime of its own. */
  forSession(sessionKey: string): Promise<SessionToolset>;
  /** The same plugins, policy and session with the tools rooted in another directory. */
  forWorkspace(workspaceDir: string): FollowingToolset;
  /** The toolset of a run in `sessionKey` at `depth` (a sub-agent, a cron turn): the bundle's policy and core's sub-agent rules. */
  runToolset(sessionKey: string, depth: number): Promise<Toolset>;
  /** Starts the state of the served sections that have some (cron's scheduler); errors are warned. */
  startState(): Promise<void>;
  /** Which tools a host sees (the config's `surface`): every tool, or the Tool Search controls over them. */
  surface: ToolSurface;
  /**
   * A toolset as a host sees it under the bundle's `surface` (default: the bundle itself): what
   * `clawtools serve` hands the MCP server. `tools` stays the full catalog, for an in-process loop.
   */
  surfaced<T extends SurfaceableToolset & { onRoots?: unknown }>(toolset?: T): SurfaceView<T>;
  /** The undo journal of the bundle's workspace: what write, edit, apply_patch and exec changed, undoable. */
  journal(): Journal;
}

/**
 * The context a bundle's tools work in: the workspace, the validated section settings (with the
 * app-wide `model` and `acp`), the state directory (`stateDir`, else one per workspace under the
 * XDG state home) and the caller's session.
 */
export function bundleContext(
  resolved: ResolvedBundleConfig,
  options: Pick<ComposeOptions, "agentId" | "sessionKey" | "laterResults"> = {},
): ToolContext {
  const agentId = options.agentId ?? resolved.agentId ?? "cli";
  return {
    workspaceDir: resolved.workspace,
    agentId,
    // the caller is the agent's main session: sub-agents announce there, "main" names it
    sessionKey: options.sessionKey ?? `agent:${agentId}:main`,
    ...(options.laterResults ? { laterResults: options.laterResults } : {}),
    // `model` is app-wide (sub-agents, and image when media names none)
    config: {
      ...resolved.sections,
      ...(resolved.model ? { model: resolved.model } : {}),
      ...(resolved.acp ? { acp: resolved.acp } : {}),
    },
    stateDir: resolveStateDir({
      workspaceDir: resolved.workspace,
      ...(resolved.stateDir ? { stateDir: resolved.stateDir } : {}),
    }),
  };
}

const stderr = (line: string) => process.stderr.write(redactSecrets(`${line}\n`));

/**
 * Composes a tool bundle from one configuration, the same one `clawtools serve --config` reads
 * (plus what its flags set): the installed sections, each in the implementation the configuration
 * chooses (embedded, PostgreSQL, a Gateway, a runner), named plugins and mounted MCP servers,
 * under one policy that also bounds every sub-agent and cron turn the bundle runs.
 */
export async function composeBundle(config: BundleConfig, options: ComposeOptions = {}): Promise<Bundle> {
  const warn = options.warn ?? stderr;
  const where = options.where ?? "configuration";
  const baseDir = options.baseDir ?? process.cwd();
  const discovered = await discoverSections({ lazy: options.lazy ?? true });
  const found = discovered.flatMap((s) => (s.plugin ? [s.plugin] : []));
  const resolved = readBundleConfig(config, found, { where, baseDir });
  const defaultProfile = options.defaultProfile === undefined ? "coding" : options.defaultProfile;
  if (resolved.profile === undefined && defaultProfile !== null) resolved.profile = defaultProfile;
  if (resolved.gatewayToken) registerSecret(resolved.gatewayToken);
  const workspace = resolved.workspace;
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new BundleConfigError(`workspace is not a directory: ${workspace}`);
  // the configuration's credentials (tokens, keys, webhook URLs) are secrets of the process
  registerSecrets(secretsInDocument(resolved.sections));
  for (const warning of resolved.warnings) warn(warning);
  const context = bundleContext(resolved, options);
  const registry = new ToolRegistry();
  // the policy every run the bundle starts on its caller's behalf is bounded by
  const operator = {
    ...(resolved.profile ? { profile: resolved.profile } : {}),
    ...(resolved.allow ? { allow: resolved.allow } : {}),
    ...(resolved.deny ? { deny: resolved.deny } : {}),
  };
  /** A sub-agent's or cron turn's toolset: the bundle's plugins, a runtime of its own, the bundle's policy and core's sub-agent rules. */
  const runToolsetFor = async (sessionKey: string, depth: number): Promise<Toolset> => {
    const runtime = registry.plugins().some((p) => p.section === "runtime")
      ? (await import("@clawtools/runtime")).createRuntimePlugin()
      : undefined;
    return runToolset({
      plugins: registry.plugins(),
      ...(runtime ? { runtime } : {}),
      context,
      sessionKey,
      depth,
      operator,
    });
  };
  const connect = options.connect ?? true;
  // what was started before the registry holds it: closed if the start fails
  const started: ClawtoolsPlugin[] = [];
  const abandon = async (error: unknown): Promise<never> => {
    await Promise.allSettled([...started].reverse().map((p) => p.dispose?.()));
    await registry.dispose().catch(() => {});
    throw error;
  };
  let store: BundleStore | undefined;
  let chosen: Awaited<ReturnType<typeof chooseSections>>;
  try {
    // the database is reached (or the start fails, naming it) before anything is served
    if (resolved.store && connect) {
      store = await openBundleStore(resolved.store, resolved.storeConnections);
      started.push(storeCloser(store));
    }
    // a section the configuration names may build other tools than its manifest lists (the
    // message tool's schema follows the configured channels): it is imported before listing
    await Promise.all(
      found
        .filter((p) => isLazySectionPlugin(p) && p.section && resolved.sections[p.section] !== undefined)
        .map((p) => (isLazySectionPlugin(p) ? p.load() : undefined)),
    );
    chosen = await chooseSections({
      discovered: found,
      config: resolved,
      context,
      store,
      runToolset: (sessionKey, depth) => runToolsetFor(sessionKey, depth),
      // the gateway tool answers config.schema.lookup from the bundle's own configuration schema
      appConfig: { config: context.config ?? {}, schema: bundleConfigSchema(found) },
      connect,
      ...(options.clientVersion ? { clientVersion: options.clientVersion } : {}),
      warn,
    });
    started.push(...chosen.plugins.values(), ...chosen.unused);
  } catch (error) {
    return abandon(error);
  }
  // named plugins are checked against the chosen sections (collisions, an OpenClaw plugin
  // replacing one) on a scratch registry, then everything is registered once
  const named: NamedPlugin[] = resolved.pluginEntries.map((entry, index) => {
    const origin = options.pluginOrigin?.(index);
    return {
      spec: entry.name,
      base: origin?.base ?? baseDir,
      from: origin?.from ?? where,
      ...(entry.config ? { config: entry.config } : {}),
      ...(entry.replaces ? { replaces: [entry.replaces] } : {}),
    };
  });
  const replaced = new Set<ClawtoolsPlugin>();
  let loaded: Awaited<ReturnType<typeof registerNamedPlugins>>;
  const scratch = new ToolRegistry();
  for (const p of chosen.plugins.values()) scratch.registerPlugin(p);
  try {
    loaded = await registerNamedPlugins(named, scratch, context, {
      replaced,
      warn,
      replaces: resolved.pluginReplaces,
    });
    started.push(...loaded.map((l) => l.registered));
  } catch (error) {
    return abandon(error);
  }
  // registered first, so disposed last: after the sections that write to it
  if (store) registry.registerPlugin(started[0]!);
  for (const p of chosen.plugins.values()) if (!replaced.has(p)) registry.registerPlugin(p);
  for (const l of loaded) registry.registerPlugin(l.registered);
  const unused = [...chosen.unused, ...replaced];
  started.length = 0;
  const namedPlugins: BundlePlugin[] = loaded.map(({ plugin, spec, tools }) => ({ plugin, spec, tools }));
  const late = new LateMcpTools();
  try {
    namedPlugins.push(...(await mountMcpServers(resolved.mcpServers, registry, where, warn, late)));
  } catch (error) {
    await Promise.allSettled(unused.map((p) => p.dispose?.()));
    return abandon(error);
  }
  const policy = bundlePolicy(resolved, registry, namedPlugins);
  const assembly =
    options.policyLabels && policy.policy.global
      ? { ...policy, policy: { ...policy.policy, globalLabels: options.policyLabels } }
      : policy;
  const toolset = createToolset({ registry, context, ...assembly, warn });
  // a server that comes back is served under every profile, through allow / deny
  const lateTools = (ctx: ToolContext, quiet?: boolean) => (plugin: ClawtoolsPlugin) => {
    const own = new ToolRegistry();
    own.registerPlugin(plugin);
    const policy = assembly.policy.global
      ? {
          global: assembly.policy.global,
          ...(options.policyLabels ? { globalLabels: options.policyLabels } : {}),
        }
      : {};
    return createToolset({ registry: own, context: ctx, ...assembly, policy, ...(quiet ? {} : { warn }) })
      .tools;
  };
  late.start(toolset.tools, lateTools(context), namedPlugins as MountedMcpServer[], toolset.resources);
  const forWorkspace = (workspaceDir: string) => {
    const ctx = { ...context, workspaceDir };
    return late.over(createToolset({ registry, context: ctx, ...assembly }), lateTools(ctx, true));
  };
  const forSession = async (sessionKey: string): Promise<SessionToolset> => {
    // the shared plugins, but a runtime of the session's own: its processes, killed on dispose
    const own = new ToolRegistry();
    const runtime = registry.plugins().some((p) => p.section === "runtime")
      ? (await import("@clawtools/runtime")).createRuntimePlugin()
      : undefined;
    for (const p of registry.plugins()) if (p.section !== "runtime") own.registerPlugin(p);
    // warnings were printed once, for the bundle's own toolset
    const ctx = { ...context, sessionKey };
    const session = createToolset({
      registry: own,
      ...(runtime ? { plugins: [runtime] } : {}),
      context: ctx,
      ...assembly,
    });
    const sessionIn = (workspaceDir: string) => {
      const rooted = { ...ctx, workspaceDir };
      return late.over(
        createToolset({ registry: own, context: rooted, ...assembly }),
        lateTools(rooted, true),
      );
    };
    return late.over({ ...session, forWorkspace: sessionIn }, lateTools(ctx, true));
  };
  const startState = async (): Promise<void> => {
    // closing or closed: nothing starts again
    if (closing) return;
    // only the sections the bundle serves a tool of: a profile without cron starts no scheduler
    const names = new Set(toolset.tools.map((t) => t.name));
    const served = registry.plugins().filter((p) => p.tools.some((r) => r.names.some((n) => names.has(n))));
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
  const state = describeState(store, context.stateDir);
  // the bundle's own secrets never reach a command its tools run, while it is open
  const release = withholdOwnSecrets(process.env, {
    ...(resolved.store ? { storeUrl: resolved.store } : {}),
    tokens: [resolved.gatewayToken, ...(options.secrets ?? [])],
    passEnv: resolved.passEnv,
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    // what the toolset holds, then the plugins the registry holds (processes, databases…)
    closing ??= (async () => {
      release();
      await toolset.dispose();
      await Promise.allSettled(unused.map((p) => p.dispose?.()));
      await registry.dispose();
    })();
    return closing;
  };
  const bundle: Bundle = {
    ...toolset,
    get tools() {
      return late.tools;
    },
    resources: late.resources ?? toolset.resources,
    onToolsChanged: (listener) => late.onChange(listener),
    context,
    config: resolved,
    registry,
    sections: discovered,
    namedPlugins,
    state,
    ...(store ? { taskStore: store.tasks } : {}),
    forSession,
    forWorkspace,
    runToolset: runToolsetFor,
    startState,
    surface: resolved.surface,
    surfaced: (set) => withToolSurface(set ?? (bundle as never), resolved.surface),
    journal: () => journalFor(context.workspaceDir!, context.stateDir!),
    describe: () =>
      describeBundle({
        tools: late.tools,
        diagnostics: toolset.diagnostics,
        registry,
        sections: discovered,
        implementations: chosen.implementations,
        namedPlugins,
        replaced: [...replaced],
        state,
      }),
    close,
    dispose: close,
  };
  return bundle;
}
