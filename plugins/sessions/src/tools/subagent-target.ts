import type { RunRecord } from "../types.js";

/** Which run a `subagents` target names, and how runs are named and shown. */

const started = (r: RunRecord) => r.startedAt ?? r.createdAt;
export const newestFirst = (a: RunRecord, b: RunRecord) => started(b) - started(a);

type Resolved = { run: RunRecord } | { error: string };

/** OpenClaw's target resolution: last, index (active first, then recent), key, exact label, label prefix, run id prefix. */
export function resolveTarget(target: string, ordered: RunRecord[]): Resolved {
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

export const name = (r: RunRecord) => r.label ?? r.task.slice(0, 40);
/** The process holding a run, as a kill result names it. */
export const holder = (r: RunRecord) =>
  r.owner ? `process ${r.owner.pid}${r.owner.host ? ` on ${r.owner.host}` : ""}` : "another process";

/** A run as `subagents list` shows it (1-based index: active runs first, then recent ones). */
export const listItem = (r: RunRecord, index: number) => ({
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

/** The list as text, one numbered line per run. */
export const listText = (ordered: RunRecord[]) =>
  ordered.length === 0
    ? "No sub-agents."
    : ordered
        .map(
          (r, i) =>
            `${i + 1}. ${name(r)} — ${r.status}${r.status !== "running" ? ` (announce ${r.announce.status})` : ""}`,
        )
        .join("\n");
