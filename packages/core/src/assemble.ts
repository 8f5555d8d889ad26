import { catalogIndex, type ToolMeta } from "./catalog.js";
import { Disposer } from "./lifecycle/disposer.js";
import { normalizeToolName } from "./policy/normalize.js";
import { isToolAllowedByPolicy } from "./policy/match.js";
import { isOwnerOnlyTool } from "./policy/owner-only.js";
import { allowEntries, profilePolicy } from "./policy/toolset-policy.js";
import { applyToolPolicyPipeline, type ToolPolicyPipelineStep } from "./policy/pipeline.js";
import { toolInputSchema } from "./providers/input-schema.js";
import { type ToolDiagnostic, ToolRegistry } from "./registry.js";
import { ToolsetPrompts } from "./prompts/toolset-prompts.js";
import { ToolsetResources } from "./resources/toolset-resources.js";
import { resolveStateDir } from "./state-dir.js";
import type { ToolContext } from "./tool.js";
import type { CreateToolsetOptions, Toolset } from "./toolset-types.js";
import { LoopDetector } from "./wrap/loop-detection.js";
import { wrapTool } from "./wrap/wrap-tool.js";

export type { ToolsetPolicy } from "./policy/toolset-policy.js";
export type { CreateToolsetOptions, Toolset } from "./toolset-types.js";

const OPENAI_PROVIDERS = new Set(["openai", "openai-responses", "openai-codex"]);

function isLoopDetector(value: unknown): value is LoopDetector {
  return typeof (value as LoopDetector | undefined)?.observe === "function";
}

/** `tools.allow` → `tools.deny` (the global layer's deny may be named otherwise: `--deny`). */
function denyLabel(label: string, policy: { globalLabels?: { allow: string; deny: string } }): string {
  if (policy.globalLabels && label === policy.globalLabels.allow) return policy.globalLabels.deny;
  return label.replace(/\.allow$/, ".deny");
}

function leftOut(meta: ToolMeta | undefined, name: string, reason: string): ToolDiagnostic {
  const where = meta?.sectionId || meta?.pluginId || "tool";
  return {
    toolId: name,
    ...(meta?.pluginId ? { pluginId: meta.pluginId } : {}),
    reason,
    message: `${where}/${name}: ${reason}`,
  };
}

/**
 * Turns plugins or a registry into the tools one run may use: resolves factories for the
 * context, applies the apply_patch gate, owner-only and every policy layer, orders them, normalises
 * their schemas for the provider and wraps each in the per-call pipeline.
 */
export function createToolset(options: CreateToolsetOptions = {}): Toolset {
  const registry = options.registry ?? new ToolRegistry();
  const diagnostics: ToolDiagnostic[] = [...registry.diagnostics];
  for (const plugin of options.plugins ?? []) diagnostics.push(...registry.registerPlugin(plugin));
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.warn?.(message);
  };
  const policy = options.policy ?? {};
  const senderIsOwner = options.senderIsOwner ?? options.context?.senderIsOwner;
  const disposer = new Disposer();
  for (const plugin of options.plugins ?? []) if (plugin.dispose) disposer.add(() => plugin.dispose!());
  const workspaceDir = options.context?.workspaceDir ?? options.context?.root;
  const context: ToolContext = {
    ...options.context,
    ...(senderIsOwner !== undefined ? { senderIsOwner } : {}),
    ...(options.context?.stateDir === undefined && workspaceDir
      ? { stateDir: resolveStateDir({ workspaceDir }) }
      : {}),
    onDispose: (fn) => disposer.add(fn),
  };
  const allowlist = allowEntries(policy);

  const resolved = registry.resolveWithDiagnostics(context, { allowlist });
  diagnostics.push(...resolved.diagnostics);
  let tools = resolved.tools;
  const metaOf = (tool: { name: string }) => registry.getMeta(normalizeToolName(tool.name));

  const provider = options.provider?.toLowerCase();
  if (!OPENAI_PROVIDERS.has(provider ?? "") && !allowlist.includes("apply_patch")) {
    tools = tools.filter((tool) => {
      if (normalizeToolName(tool.name) !== "apply_patch") return true;
      diagnostics.push(
        leftOut(
          metaOf(tool),
          "apply_patch",
          `offered to OpenAI providers only (provider: ${provider ?? "none"}); name it in an allowlist to include it`,
        ),
      );
      return false;
    });
  }

  if (senderIsOwner !== true) {
    tools = tools.filter((tool) => {
      if (!isOwnerOnlyTool(tool) && !metaOf(tool)?.ownerOnly) return true;
      diagnostics.push(
        leftOut(
          metaOf(tool),
          normalizeToolName(tool.name),
          "owner-only tool and the sender is not the owner",
        ),
      );
      return false;
    });
  }

  const metas = registry.list();
  // a profile lists what the registry holds; a tool left out above is still known
  const known = new Set(metas.map((meta) => normalizeToolName(meta.id)));
  const agent = policy.agentId ? `agents.${policy.agentId}` : "agents.<id>";
  const profileLabel = `tools.profile (${policy.profile})`;
  const providerProfileLabel = `tools.byProvider.profile (${policy.providerProfile})`;
  const steps: ToolPolicyPipelineStep[] = [
    {
      policy: profilePolicy(policy.profile, profileLabel, metas, warn),
      label: profileLabel,
      isProfile: true,
      known,
    },
    {
      policy: profilePolicy(policy.providerProfile, providerProfileLabel, metas, warn),
      label: providerProfileLabel,
      isProfile: true,
      known,
    },
    { policy: policy.global, label: policy.globalLabels?.allow ?? "tools.allow" },
    { policy: policy.globalProvider, label: "tools.byProvider.allow" },
    { policy: policy.agent, label: `${agent}.tools.allow` },
    { policy: policy.agentProvider, label: `${agent}.tools.byProvider.allow` },
    { policy: policy.group, label: "group tools.allow" },
    { policy: policy.sandbox, label: "sandbox tools.allow" },
    { policy: policy.subagent, label: "subagent tools.allow" },
  ];
  for (const step of steps) {
    if (!step.policy) continue;
    const kept = new Set(applyToolPolicyPipeline({ tools, toolMeta: metaOf, warn, steps: [step] }));
    const deny = step.policy.deny?.length ? { deny: step.policy.deny } : undefined;
    for (const tool of tools) {
      if (kept.has(tool)) continue;
      // a tool its step denies is reported as denied, under the deny list's own name
      const denied = deny !== undefined && !isToolAllowedByPolicy(tool.name, deny);
      const reason = denied ? `denied by ${denyLabel(step.label, policy)}` : `not allowed by ${step.label}`;
      diagnostics.push(leftOut(metaOf(tool), normalizeToolName(tool.name), reason));
    }
    tools = tools.filter((tool) => kept.has(tool));
  }

  // Stable sort: catalog order for core tools, registration order for plugin tools after them.
  const order = new Map(tools.map((tool, i) => [tool, i]));
  tools = [...tools].sort(
    (a, b) =>
      catalogIndex(normalizeToolName(a.name)) - catalogIndex(normalizeToolName(b.name)) ||
      order.get(a)! - order.get(b)!,
  );

  // Validation runs against the tool's own schema; the provider sees the normalised copy.
  const loops =
    // a detector from another copy of core is still a detector: no instanceof across copies
    isLoopDetector(options.loopDetection)
      ? options.loopDetection
      : options.loopDetection?.enabled
        ? new LoopDetector(options.loopDetection)
        : undefined;
  const wrapped = tools.map((tool) => ({
    ...wrapTool(tool, {
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(senderIsOwner !== undefined ? { senderIsOwner } : {}),
      ...(context.agentId ? { agentId: context.agentId } : {}),
      ...(context.sessionKey ? { sessionKey: context.sessionKey } : {}),
      warn,
      ...(loops ? { loopDetection: loops } : {}),
    }),
    parameters: toolInputSchema(tool.parameters, { provider }),
  }));
  // a plugin's resources are served with its tools: not when the policy left out every one of them
  const servedNames = new Set(tools.map((tool) => normalizeToolName(tool.name)));
  const kept = registry
    .plugins()
    .filter(
      (plugin) =>
        plugin.tools.length === 0 ||
        plugin.tools.some((r) => r.names.some((name) => servedNames.has(normalizeToolName(name)))),
    );
  const resources = new ToolsetResources(
    kept.flatMap((plugin) =>
      plugin.resources ? [{ pluginId: plugin.id, resources: plugin.resources }] : [],
    ),
    context,
  );
  // prompts follow the same rule: a plugin's prompts are served with its tools
  const prompts = new ToolsetPrompts(
    kept.flatMap((plugin) => (plugin.prompts ? [{ pluginId: plugin.id, prompts: plugin.prompts }] : [])),
    context,
  );
  return {
    tools: wrapped,
    diagnostics,
    warnings,
    registry,
    meta: (name) => registry.getMeta(normalizeToolName(name)),
    resources,
    prompts,
    dispose: () => disposer.dispose(),
  };
}
