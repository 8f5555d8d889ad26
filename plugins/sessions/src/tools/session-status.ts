import { type AgentTool, jsonResult, ToolInputError, Type } from "@clawtools/core";
import { type SessionsEnv, resolveVisible } from "../context.js";

export const sessionStatusSchema = Type.Object(
  {
    sessionKey: Type.Optional(Type.String()),
    model: Type.Optional(
      Type.String({
        description: 'Set this session\'s model override (provider/model); "default" resets it.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ago = (ms: number) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
};

export interface SessionStatusOptions {
  /** The model runs use when a session has no override. */
  defaultModel?: string;
  version: string;
}

export function createSessionStatusTool(
  env: SessionsEnv,
  options: SessionStatusOptions,
): AgentTool<typeof sessionStatusSchema> {
  return {
    name: "session_status",
    label: "Session status",
    description: "Show a session's status card (model, usage, timing); set or reset its model override.",
    parameters: sessionStatusSchema,
    async execute(_id, p) {
      const target = await resolveVisible(env, "status", p.sessionKey ?? env.callerKey);
      if (!("entry" in target)) throw new ToolInputError(target.error);
      let entry = target.entry;
      let changedModel = false;
      if (p.model !== undefined) {
        const model = p.model.trim();
        if (model !== "default" && !/^[^/\s]+\/\S+$/.test(model))
          throw new ToolInputError(`Unrecognized model "${model.slice(0, 80)}".`);
        entry = await env.service.store.patch(entry.key, { model: model === "default" ? undefined : model });
        changedModel = true;
      }
      // the session's own override, not the default, is what its runs use
      const model = entry.model ?? options.defaultModel ?? "unset";
      const lines = [
        `🦞 clawtools ${options.version}`,
        `🕒 ${new Date().toISOString()}`,
        `🧠 Model: ${model}${entry.model ? " (session override)" : ""}`,
        ...(entry.totalTokens ? [`🧮 Tokens: ${entry.totalTokens}`] : []),
        `🧵 Session: ${entry.key} • updated ${ago(entry.updatedAt)}`,
        ...(entry.status
          ? [
              `⚙️ Runtime: ${entry.status}${entry.endedAt ? ` · ${Math.round((entry.endedAt - (entry.startedAt ?? entry.createdAt)) / 1000)}s` : ""}`,
            ]
          : []),
      ];
      const statusText = lines.join("\n");
      return {
        content: [{ type: "text", text: statusText }],
        details: { ok: true, sessionKey: entry.key, changedModel, statusText },
      };
    },
  };
}

export const sessionsYieldSchema = Type.Object(
  {
    message: Type.Optional(
      Type.String({ description: 'Shown when the turn ends (default "Turn yielded.").' }),
    ),
  },
  { additionalProperties: false },
);

export function createSessionsYieldTool(env: SessionsEnv): AgentTool<typeof sessionsYieldSchema> {
  return {
    name: "sessions_yield",
    label: "Yield turn",
    description: "End this turn now and wait for sub-agent results to arrive.",
    parameters: sessionsYieldSchema,
    async execute(_id, p) {
      const message = p.message ?? "Turn yielded.";
      if (!env.hasSession) return jsonResult({ status: "error", error: "No session context" });
      const runner = env.service.runner;
      if (!runner?.onYield)
        return jsonResult({ status: "error", error: "Yield not supported in this context" });
      await runner.onYield(env.callerKey, message);
      return jsonResult({ status: "yielded", message });
    },
  };
}
