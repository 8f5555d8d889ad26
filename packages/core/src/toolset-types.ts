import type { ToolMeta } from "./catalog.js";
import type { ClawtoolsPlugin } from "./plugin.js";
import type { ToolsetPolicy } from "./policy/toolset-policy.js";
import type { ToolDiagnostic, ToolRegistry } from "./registry.js";
import type { ToolsetPrompts } from "./prompts/toolset-prompts.js";
import type { ToolsetResources } from "./resources/toolset-resources.js";
import type { AnyAgentTool, ToolContext } from "./tool.js";
import type { ToolHooks } from "./wrap/hooks.js";
import type { LoopDetectionConfig, LoopDetector } from "./wrap/loop-detection.js";

// What createToolset takes and what it gives back.

export interface CreateToolsetOptions {
  plugins?: ClawtoolsPlugin[];
  registry?: ToolRegistry;
  context?: ToolContext;
  /** Model provider: schema normalisation target and the apply_patch gate. */
  provider?: string;
  policy?: ToolsetPolicy;
  /** Undefined counts as not the owner. */
  senderIsOwner?: boolean;
  hooks?: ToolHooks;
  /** The run's signal, combined with each call's. */
  signal?: AbortSignal;
  warn?: (message: string) => void;
  /**
   * Tool-loop detection across the toolset's calls (OpenClaw's `tools.loopDetection`, off
   * unless `enabled`). Pass a `LoopDetector` to share one history between toolsets.
   */
  loopDetection?: LoopDetectionConfig | LoopDetector;
}

export interface Toolset {
  /** Ready tools in catalog order (plugin tools last), wrapped in the per-call pipeline. */
  tools: AnyAgentTool[];
  /** Everything left out and why. */
  diagnostics: ToolDiagnostic[];
  /** Policy warnings (unknown allowlist entries…), also sent to `warn`. */
  warnings: string[];
  registry: ToolRegistry;
  meta(name: string): ToolMeta | undefined;
  /**
   * The resources of the plugins this toolset serves a tool of (or that have no tools), read
   * with this toolset's context: what an MCP server lists and reads for its client.
   */
  resources: ToolsetResources;
  /** The prompts of the same plugins (MCP prompts), filled with this toolset's context. */
  prompts: ToolsetPrompts;
  /**
   * Releases what this toolset holds: resources its factories registered through
   * `ctx.onDispose`, then the plugins passed in `plugins` (a registry passed in stays the
   * caller's: call `registry.dispose()`). Async and idempotent.
   */
  dispose(): Promise<void>;
}
