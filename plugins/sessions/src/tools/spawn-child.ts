import type { Static } from "@clawtools/core";
import type { MaterializeResult } from "../attachments.js";
import type { SessionsService } from "../service.js";
import type { RunRecord } from "../types.js";
import { type sessionsSpawnSchema, subagentMessage } from "./sessions-spawn-schema.js";

type Written = Extract<MaterializeResult, { status: "ok" }>;

/**
 * The child of an admitted spawn: its session, then its run on the runner, then the run's record.
 * A child session that cannot be created leaves no files; a run that cannot start marks the child
 * failed and removes its files, and the caller answers with the error. The run is followed from
 * its start, while its record is written: a quick run's end and announce are prepared meanwhile
 * (the announce itself waits for the record).
 */
export async function startChild(
  service: SessionsService,
  spawn: {
    childKey: string;
    agentId: string;
    requesterKey: string;
    depth: number;
    maxDepth: number;
    params: Static<typeof sessionsSpawnSchema>;
    files: Written | null | undefined;
    removeFiles: () => Promise<void>;
    cwd?: string;
  },
): Promise<{ run: RunRecord; watched: Promise<void> } | { error: string; childKey: string }> {
  const { childKey, depth, params: p, files, removeFiles } = spawn;
  const label = p.label?.trim() || undefined;
  await service.store
    .create({
      key: childKey,
      agentId: spawn.agentId,
      depth,
      spawnedBy: spawn.requesterKey,
      parentSessionKey: spawn.requesterKey,
      status: "running",
      startedAt: Date.now(),
      ...(label ? { label } : {}),
      ...(p.model ? { model: p.model } : {}),
    })
    .catch(async (error: unknown) => {
      await removeFiles(); // no child, no files
      throw error;
    });
  const timeoutSeconds = p.runTimeoutSeconds ?? p.timeoutSeconds;
  let runId: string;
  try {
    runId = await service.start(childKey, subagentMessage(p.task, depth, spawn.maxDepth), {
      ...(p.model ? { model: p.model } : {}),
      ...(timeoutSeconds ? { timeoutMs: timeoutSeconds * 1000 } : {}),
      ...(files ? { extraSystemPrompt: files.systemPromptSuffix } : {}),
      ...(p.resumeSessionId ? { resumeSessionId: p.resumeSessionId } : {}),
      ...(spawn.cwd ? { cwd: spawn.cwd } : {}),
    });
  } catch (error) {
    await removeFiles();
    await service.store.patch(childKey, { status: "failed", endedAt: Date.now() });
    return { error: (error as Error).message, childKey };
  }
  const run = service.newRun({
    runId,
    childSessionKey: childKey,
    requesterSessionKey: spawn.requesterKey,
    task: p.task,
    cleanup: p.cleanup ?? "keep",
    depth,
    startedAt: Date.now(),
    ...(label ? { label } : {}),
    ...(p.model ? { model: p.model } : {}),
  });
  const recorded = service.runs.record(run);
  const watched = service.watch(run, recorded);
  await recorded;
  return { run, watched };
}
