import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatRequest, contentText, startModelServer } from "../model-server.js";
import type { MakeRunner, SharedSuiteOptions } from "./runner-factory.js";

// Runners release a run's state when it ends (issue 26: the heap grew by each run's history).

/** The release check for a runner; each runner's test file calls this with its own factory. */
export function describeRelease(makeRunner: MakeRunner, suite: SharedSuiteOptions): void {
  describe.skipIf(suite.skip ?? false)(suite.title, () => {
    let model: Awaited<ReturnType<typeof startModelServer>>;
    beforeAll(async () => {
      model = await startModelServer((r: ChatRequest) => ({
        text: `echo ${contentText(r.messages.at(-1)?.content)}`,
      }));
    });
    afterAll(() => model?.close());

    it("holds no run once it ends; wait on an ended run still answers from the recent outcomes", async () => {
      const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "pi-release-")));
      const runner = makeRunner({
        store,
        model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
      });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const key = `agent:main:subagent:r${i}`;
        await store.create({ key, agentId: "main", depth: 1 });
        const { runId } = await runner.start({ sessionKey: key, message: `task ${i}` });
        ids.push(runId);
        expect(runner.table.size.live).toBe(1);
        expect(await runner.wait(runId, 30_000)).toEqual({ status: "ok", reply: `echo task ${i}` });
      }
      // the outcome is cached as the run's promise settles; the state is gone with it
      await new Promise((r) => setImmediate(r));
      expect(runner.table.size).toEqual({ live: 0, ended: 12 });
      expect(await runner.wait(ids[0]!, 1)).toEqual({ status: "ok", reply: "echo task 0" });
      expect(await runner.steer(ids[0]!, "late")).toBe(false);
      expect(await runner.wait("never-started", 1)).toEqual({
        status: "error",
        error: "Unknown run: never-started",
      });
    });
  });
}
