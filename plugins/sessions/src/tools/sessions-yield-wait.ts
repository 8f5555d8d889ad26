import { type AgentTool, jsonResult, Type } from "@clawtools/core";
import { systemClock } from "@clawtools/core/time";
import type { SessionsEnv } from "../context.js";
import type { SessionsService } from "../service.js";
import type { RunRecord } from "../types.js";

/*
 * sessions_yield for a caller no push reaches (an MCP host): OpenClaw's yield ends the turn so a
 * sub-agent's completion arrives as the next message; a host has no next message, so here the
 * call itself waits until a child of this session finishes and returns its answer.
 */

export const sessionsYieldWaitSchema = Type.Object(
  {
    message: Type.Optional(Type.String({ description: "A note for the record (OpenClaw's yield message)." })),
    timeoutSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3600,
        description: 'How long to wait for a sub-agent to finish (default 50); then status "running".',
      }),
    ),
  },
  { additionalProperties: false },
);

export const YIELD_IDLE =
  "No sub-agent of this session is running or has an answer waiting: spawn one with sessions_spawn first.";
const DEFAULT_WAIT_S = 50;
/** Runs of another process end without an event here: the registry is read again this often. */
const RECHECK_MS = 1_000;

/** Per service, the runs a call has taken (two concurrent yields never return the same answer). */
const taken = new WeakMap<SessionsService, Set<string>>();

const byEnd = (a: RunRecord, b: RunRecord) => (a.endedAt ?? 0) - (b.endedAt ?? 0);

/** Resolves on the next run end, after `ms`, or on abort, whichever comes first. */
function nextEnd(service: SessionsService, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      systemClock.clearTimeout(timer);
      service.events.off("runEnded", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = systemClock.setTimeout(done, ms);
    service.events.on("runEnded", done);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export function createSessionsYieldWaitTool(env: SessionsEnv): AgentTool<typeof sessionsYieldWaitSchema> {
  const service = env.service;
  const mine = taken.get(service) ?? new Set<string>();
  taken.set(service, mine);
  return {
    name: "sessions_yield",
    label: "Wait for a sub-agent",
    description:
      "Wait until a sub-agent this session spawned finishes and return its answer (one per call; call again for the next).",
    parameters: sessionsYieldWaitSchema,
    async execute(_id, p, signal) {
      const deadline = Date.now() + (p.timeoutSeconds ?? DEFAULT_WAIT_S) * 1000;
      // runs whose owner process is gone end as lost, so nobody waits on a ghost
      await service.reapLost(env.callerKey);
      for (;;) {
        const runs = (await service.runs.listByRequester(env.callerKey)).filter(
          (r) => r.createdAt >= service.startedAt && r.collectedAt === undefined && !mine.has(r.runId),
        );
        const ended = runs.filter((r) => r.status !== "running").sort(byEnd)[0];
        const running = runs.filter((r) => r.status === "running").length;
        if (ended) {
          mine.add(ended.runId);
          await service.runs.update(ended.runId, { collectedAt: Date.now() });
          const more = running + runs.filter((r) => r.status !== "running").length - 1;
          return jsonResult({
            status: ended.status === "done" ? "completed" : ended.status,
            runId: ended.runId,
            childSessionKey: ended.childSessionKey,
            ...(ended.label ? { label: ended.label } : {}),
            task: ended.task,
            ...(ended.outcome?.reply !== undefined ? { reply: ended.outcome.reply } : {}),
            ...(ended.outcome?.error ? { error: ended.outcome.error } : {}),
            ...(ended.endedAt && ended.startedAt ? { runtimeMs: ended.endedAt - ended.startedAt } : {}),
            ...(more > 0
              ? { note: `${more} more sub-agent(s) of this session: call sessions_yield again for each.` }
              : {}),
          });
        }
        if (running === 0) return jsonResult({ status: "idle", error: YIELD_IDLE });
        if (signal?.aborted || Date.now() >= deadline)
          return jsonResult({
            status: "running",
            running,
            note: `${running} sub-agent(s) still running: call sessions_yield again to keep waiting.`,
          });
        await nextEnd(service, Math.min(RECHECK_MS, Math.max(1, deadline - Date.now())), signal);
      }
    },
  };
}
