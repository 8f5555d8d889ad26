import { type ClawtoolsPlugin, createToolset, type ToolContext, ToolRegistry } from "@clawtools/core";

/**
 * The sessions section wired to a pi-agent-core runner on `model`: each sub-agent run gets the
 * installed tools in a toolset of its own (with its own runtime plugin, so killing the run kills
 * the processes it started), as a non-owner under the same profile. Loaded only when a model is
 * configured, so a plain `serve` pays nothing for it.
 */
export async function sessionsWithRunner(options: {
  model: string;
  profile?: string;
  /** The installed plugins sub-agents get (the shared registry's), the runtime excepted. */
  plugins: () => ClawtoolsPlugin[];
  context: () => ToolContext;
}): Promise<ClawtoolsPlugin | undefined> {
  let sessions: typeof import("@clawtools/sessions");
  let runnerPi: typeof import("@clawtools/runner-pi");
  try {
    sessions = await import("@clawtools/sessions");
    runnerPi = await import("@clawtools/runner-pi");
  } catch {
    return undefined; // sessions or the runner is not installed: the section stays as discovered
  }
  const runtime = await import("@clawtools/runtime").catch(() => undefined);
  const plugin: ClawtoolsPlugin = sessions.createSessionsPlugin({
    defaultModel: options.model,
    runner: ({ store }) =>
      runnerPi.createPiRunner({
        store,
        model: options.model,
        tools: (sessionKey) => {
          const registry = new ToolRegistry();
          for (const p of options.plugins()) if (p.section !== "runtime") registry.registerPlugin(p);
          const set = createToolset({
            registry,
            plugins: runtime ? [runtime.createRuntimePlugin()] : [],
            context: { ...options.context(), sessionKey },
            policy: { ...(options.profile ? { profile: options.profile } : {}) },
            senderIsOwner: false,
          });
          return { tools: set.tools, dispose: () => set.dispose() };
        },
      }),
  });
  return plugin;
}
