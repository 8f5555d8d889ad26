import os from "node:os";
import path from "node:path";
import type { AgentToolResult, AnyAgentTool, ToolContext } from "@clawtools/core";
import type { OpenClawManifest } from "./manifest.js";

/** OpenClaw's tool factory context, filled from clawtools' ToolContext. */
export type OpenClawToolContext = Record<string, unknown>;

/** One `api.registerTool` call, recorded. */
export interface RecordedTool {
  names: string[];
  optional: boolean;
  /** Builds the tools for a clawtools context (a plain tool object is returned as it is). */
  factory: (ctx: ToolContext) => AnyAgentTool[];
}

export interface Recording {
  tools: RecordedTool[];
  /** Registration kinds clawtools does not support (`on`, `registerService`, …), each once. */
  unsupported: string[];
}

/** OpenClaw's ToolContext for a factory: the fields its plugins read. */
export function openClawToolContext(ctx: ToolContext): OpenClawToolContext {
  return {
    ...(ctx.config ? { config: ctx.config } : {}),
    workspaceDir: ctx.workspaceDir,
    agentDir: ctx.agentDir,
    agentId: ctx.agentId,
    sessionKey: ctx.sessionKey,
    // clawtools has no separate session id: the session key names the session
    sessionId: ctx.sessionKey,
    messageChannel: ctx.messageChannel,
    agentAccountId: ctx.agentAccountId,
    sandboxed: ctx.sandboxed ?? false,
    senderIsOwner: ctx.senderIsOwner ?? false,
    // every clawtools call is the current invocation: nothing can supersede it
    assertInvocationCurrent: () => {},
  };
}

const isTool = (v: unknown): v is AnyAgentTool =>
  typeof v === "object" && v !== null && typeof (v as AnyAgentTool).execute === "function";

/** A plugin tool as clawtools serves it: a missing `details` becomes null, a bad result an error. */
function adaptTool(tool: AnyAgentTool, pluginId: string): AnyAgentTool {
  if (typeof tool.name !== "string" || !tool.name)
    throw new Error(`plugin ${pluginId} registered a tool without a name`);
  return {
    ...tool,
    description: typeof tool.description === "string" ? tool.description : "",
    parameters: tool.parameters ?? { type: "object", properties: {} },
    execute: async (toolCallId, params, signal, onUpdate) => {
      const result = (await tool.execute(toolCallId, params, signal, onUpdate)) as AgentToolResult<unknown>;
      if (typeof result !== "object" || result === null || !Array.isArray(result.content))
        throw new Error(`${tool.name} (plugin ${pluginId}) returned no {content: [...]} result`);
      return { ...result, details: result.details ?? null };
    },
  };
}

function toList(out: unknown): AnyAgentTool[] {
  if (out == null) return [];
  const list = Array.isArray(out) ? out : [out];
  if (!list.every(isTool)) throw new Error("a tool factory returned something that is not a tool");
  return list;
}

/**
 * The `api` handed to a plugin's `register`: `registerTool` is recorded; `pluginConfig`,
 * `logger`, `resolvePath` and `registrationMode` answer as OpenClaw's do; any other
 * registration kind is recorded (once, by name) as not supported, never silently dropped.
 */
export function recordingApi(
  manifest: OpenClawManifest,
  options: { pluginConfig: unknown; context: ToolContext; log: (line: string) => void },
): { api: Record<string, unknown>; recording: Recording } {
  const recording: Recording = { tools: [], unsupported: [] };
  const id = manifest.id;
  const say =
    (level: string) =>
    (...args: unknown[]) =>
      options.log(`${id}: ${level === "info" ? "" : `${level}: `}${args.map(String).join(" ")}`);
  const registerTool = (
    toolOrFactory: unknown,
    opts: { name?: string; names?: string[]; optional?: boolean } = {},
  ) => {
    const factory =
      typeof toolOrFactory === "function"
        ? (ctx: ToolContext) =>
            toList((toolOrFactory as (c: OpenClawToolContext) => unknown)(openClawToolContext(ctx))).map(
              (t) => adaptTool(t, id),
            )
        : isTool(toolOrFactory)
          ? (() => {
              const tool = adaptTool(toolOrFactory, id);
              return () => [tool];
            })()
          : undefined;
    if (!factory) throw new Error(`plugin ${id}: registerTool needs a tool ({name, execute}) or a factory`);
    let names = opts.names ?? (opts.name ? [opts.name] : undefined);
    if (!names && isTool(toolOrFactory)) names = [toolOrFactory.name];
    // a factory without declared names is built once for the serving context to learn them
    names ??= factory(options.context).map((t) => t.name);
    if (names.length === 0) {
      recording.unsupported.push("registerTool (a factory that builds no tool here)");
      return;
    }
    recording.tools.push({
      names,
      optional: opts.optional ?? names.every((n) => manifest.optionalTools.includes(n)),
      factory,
    });
  };
  const known: Record<string, unknown> = {
    id,
    name: manifest.name ?? id,
    ...(manifest.description ? { description: manifest.description } : {}),
    source: manifest.dir,
    pluginConfig: options.pluginConfig,
    registrationMode: "full",
    logger: { info: say("info"), warn: say("warn"), error: say("error"), debug: () => {} },
    resolvePath: (input: string) =>
      path.resolve(
        options.context.workspaceDir ?? process.cwd(),
        input.startsWith("~") ? path.join(os.homedir(), input.slice(1)) : input,
      ),
    registerTool,
  };
  const api = new Proxy(known, {
    get(target, key) {
      if (typeof key !== "string" || key in target) return Reflect.get(target, key);
      // `on(hook)` and every `register*` OpenClaw offers: recorded as not supported here
      if (key === "on" || /^register[A-Z]/.test(key))
        return (...args: unknown[]) => {
          const label = key === "on" && typeof args[0] === "string" ? `on("${args[0]}")` : key;
          if (!recording.unsupported.includes(label)) recording.unsupported.push(label);
        };
      return undefined;
    },
  });
  return { api, recording };
}
