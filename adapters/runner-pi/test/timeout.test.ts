import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FakeClock } from "@clawtools/core/testing";
import { FileSessionStore } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPiRunner } from "../src/runner.js";
import { startModelServer } from "./model-server.js";

// A run's time limit runs on the runner's clock (core's Clock): driven here by a FakeClock while
// the model holds its answer, so the limit is what ends the run.

const held: Array<() => void> = [];
let onHeld: (() => void) | undefined;
let model: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => {
  model = await startModelServer(
    () =>
      new Promise((resolve) => {
        held.push(() => resolve({ text: "too late" }));
        onHeld?.();
      }),
  );
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await model?.close();
});

describe("createPiRunner time limit", () => {
  it("ends a run whose model hangs once the clock passes timeoutMs (status timeout)", async () => {
    const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "pi-timeout-")));
    await store.create({ key: "agent:main:subagent:t", agentId: "main", depth: 1 });
    const clock = new FakeClock();
    const runner = createPiRunner({
      store,
      model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
      clock,
    });
    const modelAsked = new Promise<void>((resolve) => {
      onHeld = resolve;
    });
    const { runId } = await runner.start({
      sessionKey: "agent:main:subagent:t",
      message: "hang",
      timeoutMs: 90_000,
    });
    await modelAsked;
    await clock.whenPending(1);
    clock.advance(89_999);
    expect(await runner.wait(runId, 1)).toEqual({ status: "running" });
    clock.advance(1);
    expect((await runner.wait(runId, 30_000)).status).toBe("timeout");
    expect(clock.pending).toBe(0);
  });
});
