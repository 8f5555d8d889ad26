import { type Static, Type } from "@clawtools/core";

/** `config.sessions` (OpenClaw's `tools.sessions.*`, `tools.agentToAgent.*`, `agents.defaults.subagents.*`). */
export const SessionsConfigSchema = Type.Object(
  {
    visibility: Type.Optional(
      Type.Union([Type.Literal("self"), Type.Literal("tree"), Type.Literal("agent"), Type.Literal("all")], {
        description: "Which sessions a session's tools may see (default tree, as OpenClaw's April default).",
      }),
    ),
    agentToAgent: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          allow: Type.Optional(Type.Array(Type.String())),
          /** sessions_send follow-up turns between requester and target (OpenClaw `session.agentToAgent.maxPingPongTurns`; default 5). */
          maxPingPongTurns: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** How deep sub-agents may spawn sub-agents (default 1: only top-level sessions spawn). */
    maxSpawnDepth: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    /** Running children one session may have (default 5). */
    maxChildrenPerAgent: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    /** Agents a spawn may name besides the caller's (`*`: any). */
    allowAgents: Type.Optional(Type.Array(Type.String())),
    defaultAgentId: Type.Optional(Type.String()),
    /** sessions_spawn inline attachments (OpenClaw `tools.sessions_spawn.attachments`); off unless enabled. */
    attachments: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          /** Default 5 MB across all files of one spawn. */
          maxTotalBytes: Type.Optional(Type.Integer({ minimum: 0 })),
          /** Default 50. */
          maxFiles: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
          /** Default 1 MB per file. */
          maxFileBytes: Type.Optional(Type.Integer({ minimum: 0 })),
          /** Keep the files after the run when cleanup is "keep" (default false: removed). */
          retainOnSessionKeep: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type SessionsConfig = Static<typeof SessionsConfigSchema>;
