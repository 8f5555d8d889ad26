import { type AgentTool, jsonResult, Type } from "@clawtools/core";
import { type SessionsEnv, policyOf } from "../context.js";
import { agentOf, kindOf, mainKey } from "../keys.js";
import { AncestorLookup, newestSessions, runsFor } from "../session-walk.js";
import type { SessionEntry, TranscriptMessage } from "../types.js";
import { checkVisibility } from "../visibility.js";

export const sessionsListSchema = Type.Object(
  {
    kinds: Type.Optional(Type.Array(Type.String(), { description: "main, group, cron, hook, node, other" })),
    limit: Type.Optional(Type.Number({ minimum: 1 })),
    activeMinutes: Type.Optional(Type.Number({ minimum: 1 })),
    messageLimit: Type.Optional(
      Type.Number({ minimum: 0, description: "Recent messages per session (at most 20)." }),
    ),
  },
  { additionalProperties: false },
);

const KINDS = new Set(["main", "group", "cron", "hook", "node", "other"]);

export function createSessionsListTool(env: SessionsEnv): AgentTool<typeof sessionsListSchema> {
  return {
    name: "sessions_list",
    label: "List sessions",
    description:
      "List the sessions this session can see, newest first, with sub-agent status and announce delivery.",
    parameters: sessionsListSchema,
    async execute(_id, p) {
      await env.service.ensure(env.callerKey, env.agentId);
      const kinds = p.kinds?.map((k) => k.toLowerCase()).filter((k) => KINDS.has(k));
      const since = p.activeMinutes ? Date.now() - p.activeMinutes * 60_000 : undefined;
      const limit = p.limit ? Math.floor(p.limit) : Number.POSITIVE_INFINITY;
      // walk newest first and stop at the limit: filters and visibility see the page's rows (and
      // the ones skipped on the way), never the whole store
      const lookup = new AncestorLookup(env.service.store, env.callerKey);
      const caller = { key: env.callerKey, agentId: env.agentId };
      const policy = policyOf(env);
      const rows: SessionEntry[] = [];
      const batch = Number.isFinite(limit) ? Math.min(Math.max(limit * 2, 64), 1_000) : 1_000;
      for await (const e of newestSessions(
        env.service.store,
        since === undefined ? {} : { updatedSince: since },
        batch,
      )) {
        if (kinds?.length && !kinds.includes(kindOf(e.key, agentOf(e.key)))) continue;
        await lookup.load(e);
        if (!checkVisibility("list", caller, e, policy, lookup).ok) continue;
        rows.push(e);
        if (rows.length >= limit) break;
      }
      const runs = await runsFor(env.service.runs, rows);
      const messageLimit = Math.min(Math.floor(p.messageLimit ?? 0), 20);
      const sessions = await Promise.all(
        rows.map(async (e) => {
          const run = await runs.runOf(e);
          const children = await runs.childrenOf(e.key);
          const row: Record<string, unknown> = {
            key: e.key === mainKey(env.agentId) ? "main" : e.key,
            kind: kindOf(e.key, agentOf(e.key)),
            channel: e.channel ?? "internal",
            sessionId: e.sessionId,
            updatedAt: e.updatedAt,
            ...(e.label ? { label: e.label } : {}),
            ...(e.spawnedBy ? { spawnedBy: e.spawnedBy } : {}),
            ...(e.parentSessionKey ? { parentSessionKey: e.parentSessionKey } : {}),
            ...(e.model ? { model: e.model } : {}),
            ...(e.status ? { status: e.status } : {}),
            ...(e.startedAt ? { startedAt: e.startedAt } : {}),
            ...(e.endedAt ? { endedAt: e.endedAt, runtimeMs: e.endedAt - (e.startedAt ?? e.createdAt) } : {}),
            ...(children.length ? { childSessions: children } : {}),
            ...(run ? { announce: { status: run.announce.status, attempts: run.announce.attempts } } : {}),
          };
          if (messageLimit > 0) {
            const messages = await env.service.store.history(e.key, { limit: messageLimit * 3 });
            row.messages = messages
              .filter((m: TranscriptMessage) => m.role !== "toolResult")
              .slice(-messageLimit);
          }
          return row;
        }),
      );
      return jsonResult({ count: sessions.length, sessions });
    },
  };
}
