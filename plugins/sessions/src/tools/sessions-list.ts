import { type AgentTool, jsonResult, ToolInputError, Type } from "@clawtools/core";
import type { SessionCursor } from "@clawtools/core/contracts";
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
    cursor: Type.Optional(
      Type.String({
        description: "The nextCursor of the previous page: the sessions after it (same filters).",
      }),
    ),
  },
  { additionalProperties: false },
);

const KINDS = new Set(["main", "group", "cron", "hook", "node", "other"]);
/** Sessions in a page when the call sets no limit: a big store answers in pages, never in one flood. */
export const SESSIONS_PAGE_DEFAULT = 100;

/** The cursor of a page's last row: opaque to the caller, the keyset position to the store. */
function encodeCursor(entry: { updatedAt: number; key: string }): string {
  return Buffer.from(JSON.stringify([entry.updatedAt, entry.key])).toString("base64url");
}

function decodeCursor(cursor: string): SessionCursor {
  try {
    const [updatedAt, key] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof updatedAt === "number" && Number.isFinite(updatedAt) && typeof key === "string")
      return { updatedAt, key };
  } catch {
    // refused below
  }
  throw new ToolInputError(
    "cursor is not one sessions_list gave: pass the nextCursor of the previous result, or leave it out for the first page",
  );
}

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
      const limit = p.limit ? Math.floor(p.limit) : SESSIONS_PAGE_DEFAULT;
      const start = p.cursor !== undefined ? decodeCursor(p.cursor) : undefined;
      // walk newest first and stop at the limit: filters and visibility see the page's rows (and
      // the ones skipped on the way), never the whole store
      const lookup = new AncestorLookup(env.service.store, env.callerKey);
      const caller = { key: env.callerKey, agentId: env.agentId };
      const policy = policyOf(env);
      const rows: SessionEntry[] = [];
      const batch = Math.min(Math.max(limit * 2, 64), 1_000);
      // one row past the page says whether another page follows
      let more = false;
      for await (const e of newestSessions(
        env.service.store,
        since === undefined ? {} : { updatedSince: since },
        batch,
        start,
      )) {
        if (kinds?.length && !kinds.includes(kindOf(e.key, agentOf(e.key)))) continue;
        await lookup.load(e);
        if (!checkVisibility("list", caller, e, policy, lookup).ok) continue;
        if (rows.length >= limit) {
          more = true;
          break;
        }
        rows.push(e);
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
      const last = rows.at(-1);
      if (!more || !last) return jsonResult({ count: sessions.length, sessions });
      const nextCursor = encodeCursor(last);
      return jsonResult({
        count: sessions.length,
        sessions,
        nextCursor,
        note: `More sessions: call sessions_list again with cursor="${nextCursor}" (and the same filters) for the next page.`,
      });
    },
  };
}
