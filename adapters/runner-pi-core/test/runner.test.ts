import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AnyAgentTool, Type } from "@clawtools/core";
import { FakeClock } from "@clawtools/core/testing";
import type { TranscriptMessage } from "@clawtools/core/contracts";
import { FileSessionStore } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatRequest,
  contentText,
  type Reply,
  startModelServer,
} from "../../runner-pi/test/model-server.js";
import { createPiCoreRunner } from "../src/runner.js";
import { NODE_TOO_OLD } from "./node.js";

// The pi-agent-core 1.5 runner against a loopback OpenAI-compatible model (issue 30): tool
// details reach the transcript, a failed call keeps its details, abort, steer and time limits.

/** Requests the model holds until the test releases them (a run that is provably mid-turn). */
const held: Array<() => void> = [];
const heldCount = { n: 0 };
let onHeld: (() => void) | undefined;

function script(request: ChatRequest): Reply | Promise<Reply> {
  const last = request.messages.at(-1)!;
  const text = contentText(last.content);
  const users = request.messages.filter((m) => m.role === "user").map((m) => contentText(m.content));
  if (last.role === "tool") return { text: `tool said: ${text}` };
  if (text === "MEASURE") return { toolCall: { name: "measure", arguments: { what: "disk" } } };
  if (text === "BROKEN") return { toolCall: { name: "broken", arguments: {} } };
  if (text === "HOLD" || (text.startsWith("STEERED") && users.includes("HOLD"))) {
    if (text.startsWith("STEERED")) return { text: `saw ${text}` };
    return new Promise((resolve) => {
      held.push(() => resolve({ text: "released" }));
      heldCount.n++;
      onHeld?.();
    });
  }
  return { text: `echo ${text}` };
}

let model: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => {
  model = await startModelServer(script);
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await model?.close();
});

const measure: AnyAgentTool = {
  name: "measure",
  description: "Measures something",
  parameters: Type.Object({ what: Type.String() }),
  outputSchema: { type: "object", properties: { bytes: { type: "number" } } },
  execute: async (_id, params: { what: string }) => ({
    content: [{ type: "text", text: `${params.what}: 42 bytes` }],
    details: { bytes: 42, what: params.what },
  }),
} as AnyAgentTool;

const broken: AnyAgentTool = {
  name: "broken",
  description: "Always fails",
  parameters: Type.Object({}),
  execute: async () => ({
    content: [{ type: "text", text: "disk is on fire" }],
    details: { status: "error", code: "EFIRE" },
    isError: true,
  }),
};

async function setup(key = "agent:main:subagent:t") {
  const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "pi-core-")));
  await store.create({ key, agentId: "main", depth: 1 });
  const runner = createPiCoreRunner({
    store,
    model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
    tools: () => ({ tools: [measure, broken] }),
  });
  return { store, runner, key };
}

const untilHeld = (count: number) =>
  new Promise<void>((resolve) => {
    if (heldCount.n >= count) return resolve();
    onHeld = () => heldCount.n >= count && resolve();
  });

describe.skipIf(NODE_TOO_OLD)("createPiCoreRunner (pi-agent-core 1.5)", () => {
  it("a tool's details land in the transcript; the model reads the content", async () => {
    const { store, runner, key } = await setup();
    const { runId } = await runner.start({ sessionKey: key, message: "MEASURE" });
    expect(await runner.wait(runId, 30_000)).toEqual({ status: "ok", reply: "tool said: disk: 42 bytes" });
    const result = (await store.history(key)).find((m) => m.role === "toolResult") as TranscriptMessage & {
      details: unknown;
      isError: boolean;
    };
    expect(result).toMatchObject({ toolName: "measure", isError: false });
    expect(result.details).toEqual({ bytes: 42, what: "disk" });
    // the tool definitions sent to the model: name, description, parameters
    expect(model.requests.at(-1)?.tools?.map((t) => t.function.name)).toEqual(["measure", "broken"]);
  });

  it("a failed call reaches the model as an error and keeps its details in the transcript", async () => {
    const { store, runner, key } = await setup();
    const { runId } = await runner.start({ sessionKey: key, message: "BROKEN" });
    expect(await runner.wait(runId, 30_000)).toEqual({ status: "ok", reply: "tool said: disk is on fire" });
    const result = (await store.history(key)).find((m) => m.role === "toolResult") as TranscriptMessage & {
      details: unknown;
      isError: boolean;
    };
    expect(result.isError).toBe(true);
    expect(result.details).toEqual({ status: "error", code: "EFIRE" });
  });

  it("abort ends a run mid-turn with status aborted; a later abort or steer is a no-op", async () => {
    const { runner, key } = await setup();
    const before = heldCount.n;
    const { runId } = await runner.start({ sessionKey: key, message: "HOLD" });
    await untilHeld(before + 1);
    expect(runner.canYield?.(key)).toBe(true);
    await runner.abort(runId);
    expect(await runner.wait(runId, 1)).toEqual({ status: "aborted", error: "aborted" });
    await runner.abort(runId);
    expect(await runner.steer(runId, "late")).toBe(false);
    expect(runner.canYield?.(key)).toBe(false);
  });

  it("a steered message joins the running turn", async () => {
    const { runner, key } = await setup();
    const before = heldCount.n;
    const { runId } = await runner.start({ sessionKey: key, message: "HOLD" });
    await untilHeld(before + 1);
    expect(await runner.steer(runId, "STEERED hello")).toBe(true);
    // answers the held request (and any left by the aborted run above)
    for (const release of held.splice(0)) release();
    expect(await runner.wait(runId, 30_000)).toEqual({ status: "ok", reply: "saw STEERED hello" });
  });

  it("the run's time limit, on the runner's clock, ends a run whose model hangs", async () => {
    const { store, key } = await setup();
    const clock = new FakeClock();
    const runner = createPiCoreRunner({
      store,
      model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
      clock,
    });
    const before = heldCount.n;
    const timed = await runner.start({ sessionKey: key, message: "HOLD", timeoutMs: 60_000 });
    await untilHeld(before + 1);
    await clock.whenPending(1);
    clock.advance(60_000);
    expect((await runner.wait(timed.runId, 30_000)).status).toBe("timeout");
    expect(clock.pending).toBe(0);
  });

  it("a model error is reported with the key redacted; a bad model name fails the start and leaves no run", async () => {
    const { runner, key, store } = await setup();
    const { runId } = await runner.start({ sessionKey: key, message: "hi", model: "openai/other" });
    // the loopback model answers any model name; an unknown provider without an endpoint is refused
    expect((await runner.wait(runId, 30_000)).status).toBe("ok");
    await expect(runner.start({ sessionKey: key, message: "hi", model: "nowhere/x" })).rejects.toThrow(
      'no endpoint known for provider "nowhere"',
    );
    expect(runner.canYield?.(key)).toBe(false);
    const failing = createPiCoreRunner({
      store,
      model: { model: "openai/scripted", baseUrl: `${model.baseUrl}/missing`, apiKey: "sk-loopback" },
    });
    const failed = await failing.start({ sessionKey: key, message: "hi" });
    const outcome = await failing.wait(failed.runId, 30_000);
    expect(outcome.status).toBe("error");
    expect(outcome.error).not.toContain("sk-loopback");
  });
});
