import { type AgentTool, jsonResult, optionalStringEnum, Type } from "@clawtools/core";
import type { SessionsEnv } from "../context.js";
import { isSubagentKey } from "../keys.js";
import { liveTokens } from "../liveness.js";
import { heldElsewhere } from "../remote-kill.js";
import { holder, listItem, listText, name, newestFirst, resolveTarget } from "./subagent-target.js";
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
        return jsonResult({
          status: "ok",
          ...base,
          total: ordered.length,
          active: active.map(listItem),
          recent: recent.map((r, i) => listItem(r, active.length + i)),
          text: listText(ordered),
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
        const live = ok ? undefined : await liveTokens(env.service.runs);
        if (!ok && heldElsewhere(run, env.service.owner, Date.now(), env.service.staleMs, live))
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
