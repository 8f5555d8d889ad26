import { type ClawtoolsPlugin, definePlugin } from "@clawtools/core";
import { ProcessRegistry } from "./process/registry.js";
import { createExecTool, type ExecToolOptions } from "./tools/exec.js";
import { createProcessTool } from "./tools/process.js";

export interface RuntimePluginOptions {
  exec?: Omit<ExecToolOptions, "registry">;
  /** Shared by exec and process; one per plugin instance by default. */
  registry?: ProcessRegistry;
  /** How long finished sessions are kept (default 30 min, clamped 1 min..3 h). */
  retentionMs?: number;
}

/** The runtime section: exec and process sharing one process registry. */
export function createRuntimePlugin(
  options: RuntimePluginOptions = {},
): ClawtoolsPlugin & { registry: ProcessRegistry } {
  const registry =
    options.registry ??
    new ProcessRegistry({ ...(options.retentionMs ? { retentionMs: options.retentionMs } : {}) });
  const plugin = definePlugin({
    id: "@clawtools/runtime",
    version: "0.1.0",
    description: "Runtime: exec and process with background sessions, PTY, approvals and a hardened host",
    section: "runtime",
    tools: [
      { name: "exec", factory: (ctx) => createExecTool(ctx, { ...options.exec, registry }) },
      { name: "process", factory: (ctx) => createProcessTool(ctx, { registry }) },
    ],
  });
  return Object.assign(plugin, { registry });
}

export const runtimePlugin = createRuntimePlugin();
export default runtimePlugin;
