import { type Static, Type } from "@clawtools/core";

/** `config.agents` (OpenClaw's `agents.list` and `agents.defaults.subagents.allowAgents`). */
export const AgentsConfigSchema = Type.Object(
  {
    /** The agents this app knows (OpenClaw's `agents.list`). */
    list: Type.Optional(
      Type.Array(
        Type.Object(
          { id: Type.String({ minLength: 1 }), name: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      ),
    ),
    /** Agents a session may spawn besides its own (`*`: every configured agent). Falls back to `config.sessions.allowAgents`. */
    allowAgents: Type.Optional(Type.Array(Type.String())),
    /** The requester when the context names no agent (default `main`). */
    defaultAgentId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type AgentsConfig = Static<typeof AgentsConfigSchema>;
