import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AnyAgentTool, createToolset } from "@clawtools/core";
import { delay } from "@clawtools/core/time";
import { describe, expect, it } from "vitest";
import { createSessionsPlugin, FileRunRegistry, type RunRegistry } from "../src/index.js";
import { createScriptedRunner } from "../src/testing.js";

/** The plugin over a fresh state dir with `runs`, a scripted runner answering "ok" at once. */
function spawnSetup(runs: (stateDir: string) => RunRegistry) {
  const stateDir = mkdtempSync(path.join(tmpdir(), "sessions-spawn-record-"));
  let runner: ReturnType<typeof createScriptedRunner> | undefined;
  const plugin = createSessionsPlugin({
    runs: runs(stateDir),
    runner: ({ store }) => {
      runner = createScriptedRunner({ store, script: () => "ok" });
      return runner;
    },
  });
  const set = createToolset({
    plugins: [plugin],
    context: { workspaceDir: stateDir, stateDir, agentId: "main", sessionKey: "main" },
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  const spawn = set.tools.find((t) => t.name === "sessions_spawn") as AnyAgentTool;
  const service = plugin.serviceFor({ workspaceDir: stateDir, stateDir });
  const completions = async () =>
    (await service.store.history("agent:main:main")).filter((m) => m.internal?.kind === "completion");
  return { service, spawn, completions, runner: () => runner! };
}

/** Until `check` holds (the condition is the event waited for). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await delay(5);
  }
}

describe("sessions_spawn: the run is followed while its record is written", () => {
  it("a run that ends before its record is in is announced once, only after the record", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inner!: FileRunRegistry;
    const s = spawnSetup((stateDir) => {
      inner = new FileRunRegistry(stateDir);
      return Object.assign(Object.create(inner) as FileRunRegistry, {
        record: async (run: Parameters<RunRegistry["record"]>[0]) => {
          await held;
          return inner.record(run);
        },
      });
    });
    const announced = new Promise((resolve) => s.service.events.once("announce", resolve));
    const answer = s.spawn.execute("c", { task: "quick" });
    // the run ends and the child's end is written while the record is held back
    await until(async () => s.runner().runs.size === 1);
    const [runId] = [...s.runner().runs.keys()];
    expect((await s.runner().wait(runId!, 20_000)).status).toBe("ok");
    await until(async () => (await s.service.store.list()).some((e) => e.status === "done"));
    expect(await s.completions()).toEqual([]);
    expect(await inner.list()).toEqual([]);
    release();
    await answer;
    await announced;
    expect(await s.completions()).toHaveLength(1);
    expect(await inner.get(runId!)).toMatchObject({ status: "done", announce: { status: "delivered" } });
    await s.service.idle();
    expect(await s.completions()).toHaveLength(1);
  });

  it("a run whose record cannot be written fails the spawn and is never announced", async () => {
    const s = spawnSetup((stateDir) =>
      Object.assign(Object.create(new FileRunRegistry(stateDir)) as FileRunRegistry, {
        record: async () => {
          throw new Error("disk full");
        },
      }),
    );
    const answer = await s.spawn.execute("c", { task: "quick" });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain("disk full");
    const [runId] = [...s.runner().runs.keys()];
    expect((await s.runner().wait(runId!, 20_000)).status).toBe("ok");
    // the follow ends once the child's end is written; it announced nothing
    await s.service.idle();
    expect((await s.service.store.list()).find((e) => e.key.includes(":subagent:"))?.status).toBe("done");
    expect(await s.completions()).toEqual([]);
    expect(await s.service.runs.list()).toEqual([]);
  });
});
