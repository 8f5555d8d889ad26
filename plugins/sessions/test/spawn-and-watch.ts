// A sub-agent run taken through its whole life, for tests that look at what its end leaves behind.
import type { FileSessionStore, RunRegistry, SessionsService } from "../src/index.js";

/** A child of agent:main:main started, recorded and watched to its end; its run id. */
export async function spawnAndWatch(
  service: SessionsService,
  store: FileSessionStore,
  runs: RunRegistry,
): Promise<string> {
  await store.create({
    key: "agent:main:subagent:c",
    agentId: "main",
    spawnedBy: "agent:main:main",
    depth: 1,
  });
  const runId = await service.start("agent:main:subagent:c", "work");
  const record = service.newRun({
    runId,
    childSessionKey: "agent:main:subagent:c",
    requesterSessionKey: "agent:main:main",
    task: "work",
    cleanup: "keep",
    depth: 1,
  });
  await runs.record(record);
  await service.watch(record);
  return runId;
}
