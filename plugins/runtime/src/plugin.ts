import { type ClawtoolsPlugin, ConfigError, defineSectionPlugin, type ToolContext } from "@clawtools/core";
import { execOutputResources } from "./exec-output-resources.js";
import { parseRuntimeConfig, readRuntimeConfig, runtimeConfigSchema } from "./config.js";
import type { SessionLimits } from "./process/limits.js";
import { ProcessRegistry } from "./process/registry.js";
import { ExecPolicy, type ExecPolicyConfig } from "./security/exec-policy.js";
import { isRuleFileError } from "./security/rule-files.js";
import { ExecSandbox } from "./sandbox/sandbox.js";
import { sandboxUrlPolicy } from "./sandbox/url-policy.js";
import { createExecTool, type ExecToolOptions } from "./tools/exec.js";
import { createProcessTool } from "./tools/process.js";

export interface RuntimePluginOptions {
  /** `config.runtime.exec` keys (they win over the context's, key by key) plus code-only options. */
  exec?: Omit<ExecToolOptions, "registry">;
  /** Shared by exec and process; one per plugin instance by default. */
  registry?: ProcessRegistry;
  /**
   * Session limits (else `config.runtime.limits`, else OPENCLAW_BASH_MAX_OUTPUT_CHARS /
   * PI_BASH_MAX_OUTPUT_CHARS, OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS, PI_BASH_JOB_TTL_MS, else
   * OpenClaw's defaults): output kept (200,000 chars), unread output kept (30,000), finished
   * sessions kept (30 min).
   */
  limits?: Partial<SessionLimits>;
  /** `config.runtime.execPolicy`: rules, Claude Code settings files, Codex rules files. */
  execPolicy?: ExecPolicyConfig;
  /** `config.runtime.sandbox`. */
  sandbox?: "auto" | "bwrap" | "none";
  /** `config.runtime.sandboxNetwork`. */
  sandboxNetwork?: "proxy" | "off";
}

/** Splits the options in code into configuration (validated) and what only code can give. */
function splitOptions(exec: RuntimePluginOptions["exec"] = {}) {
  const { approval, hosts, onBackgroundExit, ...config } = exec;
  return { code: { approval, hosts, onBackgroundExit }, config };
}

/** The exec policy's rule files are read (and their examples checked) when the tools are made. */
function loadPolicy(
  config: ReturnType<typeof readRuntimeConfig>,
  workspaceDir: string | undefined,
): ExecPolicy {
  try {
    return ExecPolicy.load(config.execPolicy, workspaceDir ?? process.cwd());
  } catch (error) {
    if (isRuleFileError(error)) throw new ConfigError("runtime", [`  - execPolicy: ${error.message}`]);
    throw error;
  }
}

/**
 * The runtime section: exec and process sharing one process registry. Configuration comes
 * from `ctx.config.runtime` (validated against `runtimeConfigSchema`) overlaid by the options
 * given here; `dispose()` kills every running and background session, whole process groups.
 */
export function createRuntimePlugin(
  options: RuntimePluginOptions = {},
): ClawtoolsPlugin & { registry: ProcessRegistry; dispose: () => Promise<void> } {
  const { code, config } = splitOptions(options.exec);
  // options given in code are checked now, so a typo fails at start-up rather than at a call
  const inCode = parseRuntimeConfig({
    ...(Object.keys(config).length ? { exec: config } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.execPolicy ? { execPolicy: options.execPolicy } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.sandboxNetwork ? { sandboxNetwork: options.sandboxNetwork } : {}),
  });
  const registry = options.registry ?? new ProcessRegistry(inCode.limits);
  const resolved = (ctx: Parameters<typeof readRuntimeConfig>[0]) => {
    const merged = readRuntimeConfig(ctx, inCode);
    if (!options.registry && merged.limits && ctx.config?.runtime !== undefined)
      registry.setLimits(merged.limits);
    const defined = Object.fromEntries(Object.entries(code).filter(([, v]) => v !== undefined));
    const full = ctx as ToolContext;
    const sandbox = sandboxFor(merged.sandbox, merged.sandboxNetwork ?? "proxy", full);
    return {
      ...merged.exec,
      ...defined,
      registry,
      policy: loadPolicy(merged, full.workspaceDir),
      ...(sandbox ? { sandbox } : {}),
    } as ExecToolOptions;
  };
  // one sandbox (and egress proxy) per mode, state dir and URL policy, for the plugin's lifetime
  const sandboxes = new Map<string, ExecSandbox>();
  const sandboxFor = (
    mode: "auto" | "bwrap" | "none" | undefined,
    network: "proxy" | "off",
    ctx: ToolContext,
  ) => {
    if (!mode || mode === "none") return undefined;
    const urlPolicy = sandboxUrlPolicy(ctx.config);
    const key = JSON.stringify([mode, network, ctx.stateDir ?? "", urlPolicy]);
    let sandbox = sandboxes.get(key);
    if (!sandbox) {
      sandbox = new ExecSandbox({
        mode,
        network,
        urlPolicy,
        ...(ctx.stateDir ? { stateDir: ctx.stateDir } : {}),
      });
      sandboxes.set(key, sandbox);
    }
    return sandbox;
  };
  const dispose = async () => {
    await registry.dispose();
    await Promise.all([...sandboxes.values()].map((s) => s.dispose()));
    sandboxes.clear();
  };
  // the runtime's configuration overlays exec keys itself (readRuntimeConfig), checked above
  return defineSectionPlugin({
    module: import.meta.url,
    description: "Runtime: exec and process with background sessions, PTY, approvals and a hardened host",
    section: "runtime",
    configSchema: runtimeConfigSchema,
    tools: () => [
      { name: "exec", factory: (ctx) => createExecTool(ctx, resolved(ctx)) },
      { name: "process", factory: (ctx) => createProcessTool(ctx, { registry }) },
    ],
    dispose,
    // the spilled output of this runtime's exec sessions, readable by the scope that ran them
    resources: execOutputResources(registry),
    members: { registry },
    // dispose is given, so the plugin has one (definePlugin types it optional)
  }) as ClawtoolsPlugin & { registry: ProcessRegistry; dispose: () => Promise<void> };
}

export const runtimePlugin = createRuntimePlugin();
export default runtimePlugin;
