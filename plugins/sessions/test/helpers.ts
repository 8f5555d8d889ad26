import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, type AnyAgentTool, createToolset } from "@clawtools/core";
import { createSessionsPlugin, type SessionsPluginOptions } from "../src/index.js";
import { createScriptedRunner, type ScriptedRunnerOptions } from "../src/testing.js";

export const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
export const json = (r: AgentToolResult<unknown>): any => JSON.parse(text(r));

export interface SetupOptions extends SessionsPluginOptions {
  script?: ScriptedRunnerOptions["script"];
  onYield?: ScriptedRunnerOptions["onYield"];
  noRunner?: boolean;
}

/**
 * The sessions plugin over the embedded file store in a fresh state directory, with a scripted
 * runner; `as(sessionKey)` gives the tools of another caller on the same store.
 */
export function setup(options: SetupOptions = {}) {
  const { script, onYield, noRunner, ...pluginOptions } = options;
  const stateDir = mkdtempSync(path.join(tmpdir(), "sessions-test-"));
  const workspaceDir = mkdtempSync(path.join(tmpdir(), "sessions-ws-"));
  let runner: ReturnType<typeof createScriptedRunner> | undefined;
  const plugin = createSessionsPlugin({
    ...pluginOptions,
    ...(noRunner
      ? {}
      : {
          runner: ({ store }) => {
            runner = createScriptedRunner({
              store,
              ...(script ? { script } : {}),
              ...(onYield ? { onYield } : {}),
            });
            return runner;
          },
        }),
  });
  const as = (
    sessionKey: string | undefined,
    extra: {
      agentId?: string;
      sandboxed?: boolean;
      config?: Record<string, unknown>;
      laterResults?: "push" | "pull";
    } = {},
  ) => {
    const set = createToolset({
      plugins: [plugin],
      context: {
        workspaceDir,
        stateDir,
        agentId: extra.agentId ?? "main",
        ...(sessionKey !== undefined ? { sessionKey } : {}),
        ...(extra.sandboxed ? { sandboxed: true } : {}),
        ...(extra.laterResults ? { laterResults: extra.laterResults } : {}),
        ...(extra.config ? { config: { sessions: extra.config } } : {}),
      },
      policy: { profile: "full" },
      senderIsOwner: true,
    });
    const tool = (name: string) => set.tools.find((t) => t.name === name) as AnyAgentTool | undefined;
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const t = tool(name);
      if (!t) throw new Error(`no tool ${name}: ${JSON.stringify(set.diagnostics ?? [])}`);
      return (await t.execute("call", args)) as AgentToolResult<unknown>;
    };
    return {
      set,
      tool,
      call,
      json: async (name: string, args?: Record<string, unknown>) => json(await call(name, args)),
    };
  };
  const main = as("main");
  const service = plugin.serviceFor({ workspaceDir, stateDir, agentId: "main" });
  return { plugin, stateDir, workspaceDir, service, as, ...main, runner: () => runner! };
}

/** A promise and the function that settles it (a run the test finishes when it wants). */
export function gate<T = string>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}
