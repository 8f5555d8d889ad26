import { type AgentTool, jsonResult, optionalStringEnum, Type } from "@clawtools/core";
import type { SessionsEnv } from "../context.js";
import { isSubagentKey } from "../keys.js";
import { heldElsewhere } from "../remote-kill.js";
import type { RunRecord } from "../types.js";
import { steerElsewhere } from "./steer-elsewhere.js";

export const subagentsSchema = Type.Object(
  {
    action: optionalStringEnum(["list", "kill", "steer"] as const, { description: "Default list." }),
    target: Type.Optional(
      Type.String({
        description:
          "last, a 1-based index, a session key, a label (or its prefix), a run id prefix, or all.",
      }),
    ),
    message: Type.Optional(Type.String()),
    recentMinutes: Type.Optional(Type.Number({ minimum: 1 })),
  },
  { additionalProperties: false },
);

const MAX_STEER = 4_000;
const STEER_GAP_MS = 2_000;
/** Per service, when each caller last steered each run (`<caller> <runId>`): one steer per run per 2 s. */
const steerTimes = new WeakMap<object, Map<string, number>>();

const started = (r: RunRecord) => r.startedAt ?? r.createdAt;
const newestFirst = (a: RunRecord, b: RunRecord) => started(b) - started(a);

type Resolved = { run: RunRecord } | { error: string };

/** OpenClaw's target resolution: last, index (active first, then recent), key, exact label, label prefix, run id prefix. */
function resolveTarget(target: string, ordered: RunRecord[]): Resolved {
  const t = target.trim();
  if (!t) return { error: "Missing subagent target." };
  if (t === "last") {
    // the most recently started run, active or not
    const newest = [...ordered].sort((a, b) => started(b) - started(a))[0];
    return newest ? { run: newest } : { error: `Unknown subagent target: ${t}` };
  }
  if (/^\d+$/.test(t)) {
    const run = ordered[Number(t) - 1];
    return run ? { run } : { error: `Invalid subagent index: ${t}` };
  }
  if (t.includes(":")) {
    const run = ordered.find((r) => r.childSessionKey === t);
    return run ? { run } : { error: `Unknown subagent session: ${t}` };
  }
  const exact = ordered.filter((r) => r.label === t);
  if (exact.length === 1) return { run: exact[0]! };
  if (exact.length > 1) return { error: `Ambiguous subagent label: ${t}` };
  const prefix = ordered.filter((r) => r.label?.startsWith(t));
  if (prefix.length === 1) return { run: prefix[0]! };
  if (prefix.length > 1) return { error: `Ambiguous subagent label prefix: ${t}` };
  const byId = ordered.filter((r) => r.runId.startsWith(t));
  if (byId.length === 1) return { run: byId[0]! };
  if (byId.length > 1) return { error: `Ambiguous subagent run id prefix: ${t}` };
  return { error: `Unknown subagent target: ${t}` };
}

const name = (r: RunRecord) => r.label ?? r.task.slice(0, 40);
/** The process holding a run, as a kill result names it. */
const holder = (r: RunRecord) =>
  r.owner ? `process ${r.owner.pid}${r.owner.host ? ` on ${r.owner.host}` : ""}` : "another process";

export function createSubagentsTool(env: SessionsEnv): AgentTool<typeof subagentsSchema> {
  return {
    name: "subagents",
    label: "Sub-agents",
    description: "List, kill or steer the sub-agents this session spawned.",
    parameters: subagentsSchema,
    async execute(_id, p) {
      const action = p.action ?? "list";
      const callerIsSubagent = isSubagentKey(env.callerKey);
      const recentMs = Math.min(Math.max(1, p.recentMinutes ?? 30), 1440) * 60_000;
      // runs whose owner process is gone are shown as lost, never as active ghosts
      await env.service.reapLost(env.callerKey);
      // newest first; runs started in the same millisecond keep their reverse recording order
      const mine = (await env.service.runs.listByRequester(env.callerKey)).reverse();
      const active = mine.filter((r) => r.status === "running").sort(newestFirst);
      const recent = mine
        .filter((r) => r.status !== "running" && (r.endedAt ?? r.createdAt) >= Date.now() - recentMs)
        .sort(newestFirst);
      const ordered = [...active, ...recent];
      const base = {
        action,
        requesterSessionKey: env.callerKey,
        callerSessionKey: env.callerKey,
        callerIsSubagent,
      };
      if (action === "list") {
        const item = (r: RunRecord, index: number) => ({
          index: index + 1,
          runId: r.runId,
          sessionKey: r.childSessionKey,
          ...(r.label ? { label: r.label } : {}),
          task: r.task,
          status: r.status,
          runtime: "subagent",
          runtimeMs: (r.endedAt ?? Date.now()) - (r.startedAt ?? r.createdAt),
          pendingDescendants: 0,
          ...(r.model ? { model: r.model } : {}),
          ...(r.startedAt ? { startedAt: r.startedAt } : {}),
          ...(r.endedAt ? { endedAt: r.endedAt } : {}),
          announce: r.announce.status,
        });
        const text =
          ordered.length === 0
            ? "No sub-agents."
            : ordered
                .map(
                  (r, i) =>
                    `${i + 1}. ${name(r)} — ${r.status}${r.status !== "running" ? ` (announce ${r.announce.status})` : ""}`,
                )
                .join("\n");
        return jsonResult({
          status: "ok",
          ...base,
          total: ordered.length,
          active: active.map(item),
          recent: recent.map((r, i) => item(r, active.length + i)),
          text,
        });
      }
      // a leaf: a sub-agent at the deepest level allowed to spawn, which has nothing to control
      const callerDepth = callerIsSubagent ? ((await env.service.store.get(env.callerKey))?.depth ?? 1) : 0;
      if (callerIsSubagent && callerDepth >= (env.config.maxSpawnDepth ?? 1))
        return jsonResult({
          status: "forbidden",
          ...base,
          error: "Leaf subagents cannot control other sessions.",
        });
      if (action === "kill") {
        const t = p.target?.trim() ?? "";
        if (t === "all" || t === "*") {
          if (active.length === 0)
            return jsonResult({ status: "ok", ...base, target: t, text: "no running subagents to kill." });
          const results = (await Promise.all(active.map((r) => env.service.kill(r.runId)))).flat();
          const killed = results.filter((r) => r.status === "killed");
          // runs other processes hold and have not ended yet
          const pending = results.filter((r) => r.status === "running");
          return jsonResult({
            status: "ok",
            ...base,
            target: t,
            killed: killed.map((r) => r.runId),
            ...(pending.length ? { pending: pending.map((r) => r.runId) } : {}),
            text: `killed ${killed.length} subagents.${pending.length ? ` ${pending.length} held by other processes did not confirm yet.` : ""}`,
          });
        }
        const found = resolveTarget(t, ordered);
        if ("error" in found) return jsonResult({ status: "error", ...base, target: t, error: found.error });
        const { run } = found;
        if (run.status !== "running")
          return jsonResult({
            status: "done",
            ...base,
            target: t,
            runId: run.runId,
            text: `${name(run)} is already finished.`,
          });
        const [self, ...descendants] = await env.service.kill(run.runId);
        const elsewhere = run.owner !== undefined && !env.service.owns(run);
        if (self?.status === "running")
          return jsonResult({
            status: "pending",
            ...base,
            target: t,
            runId: run.runId,
            sessionKey: run.childSessionKey,
            text: `asked ${holder(run)}, which holds ${name(run)}, to kill it; it has not confirmed yet (subagents list shows when it ends).`,
          });
        if (self && self.status !== "killed")
          return jsonResult({
            status: "done",
            ...base,
            target: t,
            runId: run.runId,
            text: `${name(run)} is already finished.`,
          });
        return jsonResult({
          status: "ok",
          ...base,
          target: t,
          runId: run.runId,
          sessionKey: run.childSessionKey,
          ...(run.label ? { label: run.label } : {}),
          cascadeKilled: descendants.length,
          cascadeLabels: descendants.map(name),
          ...(elsewhere ? { heldBy: holder(run) } : {}),
          text: `killed ${name(run)}${descendants.length ? ` (+ ${descendants.length} descendants)` : ""}${elsewhere ? ` (held by ${holder(run)})` : ""}.`,
        });
      }
      if (action === "steer") {
        const found = resolveTarget(p.target ?? "", ordered);
        if ("error" in found) return jsonResult({ status: "error", ...base, error: found.error });
        const { run } = found;
        if (run.childSessionKey === env.callerKey)
          return jsonResult({ status: "forbidden", ...base, error: "Subagents cannot steer themselves." });
        const message = p.message ?? "";
        if (message.length > MAX_STEER)
          return jsonResult({
            status: "error",
            ...base,
            error: `Message too long (${message.length} chars, max ${MAX_STEER}).`,
          });
        if (run.status !== "running")
          return jsonResult({
            status: "done",
            ...base,
            runId: run.runId,
            text: `${name(run)} is already finished.`,
          });
        let lastSteers = steerTimes.get(env.service);
        if (!lastSteers) {
          lastSteers = new Map();
          steerTimes.set(env.service, lastSteers);
        }
        const steerKey = `${env.callerKey} ${run.runId}`;
        if (Date.now() - (lastSteers.get(steerKey) ?? 0) < STEER_GAP_MS)
          return jsonResult({
            status: "rate_limited",
            ...base,
            runId: run.runId,
            error: "Steer rate limit exceeded. Wait a moment before sending another steer.",
          });
        lastSteers.set(steerKey, Date.now());
        if (lastSteers.size > 1_000)
          for (const [k, at] of lastSteers) if (Date.now() - at >= STEER_GAP_MS) lastSteers.delete(k);
        const ok = await env.service.runner!.steer(run.runId, message);
        if (!ok && heldElsewhere(run, env.service.owner, Date.now(), env.service.staleMs))
          return steerElsewhere(env.service, run, message, base, name(run), holder(run));
        return ok
          ? jsonResult({ status: "accepted", ...base, runId: run.runId, text: `steered ${name(run)}.` })
          : jsonResult({
              status: "done",
              ...base,
              runId: run.runId,
              text: `${name(run)} is already finished.`,
            });
      }
      return jsonResult({ status: "error", ...base, error: "Unsupported action." });
    },
  };
}
