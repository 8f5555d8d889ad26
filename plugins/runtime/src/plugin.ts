import { type ClawtoolsPlugin, definePlugin } from "@clawtools/core";
import type { SessionLimits } from "./process/limits.js";
import { ProcessRegistry } from "./process/registry.js";
import { createExecTool, type ExecToolOptions } from "./tools/exec.js";
import { createProcessTool } from "./tools/process.js";

export interface RuntimePluginOptions {
  exec?: Omit<ExecToolOptions, "registry">;
  /** Shared by exec and process; one per plugin instance by default. */
  registry?: ProcessRegistry;
  /**
   * Session limits (else OPENCLAW_BASH_MAX_OUTPUT_CHARS / PI_BASH_MAX_OUTPUT_CHARS,
   * OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS, PI_BASH_JOB_TTL_MS, else OpenClaw's defaults):
   * output kept (200,000 chars), unread output kept (30,000), finished sessions kept (30 min).
   */
  limits?: Partial<SessionLimits>;
}

/** The runtime section: exec and process sharing one process registry. */
export function createRuntimePlugin(
  options: RuntimePluginOptions = {},
): ClawtoolsPlugin & { registry: ProcessRegistry } {
  const registry = options.registry ?? new ProcessRegistry(options.limits);
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
