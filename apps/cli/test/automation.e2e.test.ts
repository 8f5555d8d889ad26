import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ChatRequest,
  contentText,
  type Reply,
  startModelServer,
} from "../../../adapters/runner-pi/test/model-server.js";
import { json, requireBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// cron through `clawtools serve`, driven by the MCP SDK's own client: agentTurn jobs run on the same
// runner and session store as the sessions section, and jobs persist under the state directory.

// OpenClaw 9.6's refusal of an announce with nowhere to go, with clawtools' settings to change
const NO_CHANNEL =
  'Channel is required (no configured channels detected). Set delivery.channel and delivery.to to announce through a messaging channel, delivery.mode "webhook" with delivery.to to POST the result, or delivery.mode "none" to leave it in the run\'s session (cron runs shows its sessionKey).';

const NO_MODEL =
  'no model for agentTurn jobs: set one with --model <provider>/<id> or "model" in the config file (systemEvent jobs run without one)';

// The scripted model: a task naming a file reads it through the real `read` tool, then reports it.
function script(request: ChatRequest): Reply {
  const last = request.messages.at(-1)!;
  if (last.role === "tool") return { text: `The note says: ${contentText(last.content).trim()}` };
  const task = contentText([...request.messages].reverse().find((m) => m.role === "user")?.content);
  const file = /READ<(.+?)>/.exec(task);
  if (file) return { toolCall: { name: "read", arguments: { path: file[1] } } };
  return { text: "Nothing to do." };
}

let model: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => {
  requireBuilt();
  model = await startModelServer(script);
});
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await model?.close();
});

async function serve(workspace: string, args: string[], env: Record<string, string> = {}) {
  const { client } = await connectCli(
    [
      "serve",
      "--workspace",
      workspace,
      "--state-dir",
      path.join(workspace, ".state"),
      "--profile",
      "full",
      "--owner",
      ...args,
    ],
    { env, stderr: "ignore" },
  );
  clients.push(client);
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) =>
      json(await client.callTool({ name, arguments: args })),
  };
}

/** `cron run` enqueues and answers at once (as OpenClaw's does); the outcome shows in `runs`. */
async function runToEnd(call: (name: string, args: Record<string, unknown>) => Promise<any>, jobId: string) {
  const run = await call("cron", { action: "run", jobId });
  expect(run).toEqual({ ok: true, enqueued: true, runId: expect.any(String) });
  let entry: any;
  await vi.waitFor(
    async () => {
      [entry] = (await call("cron", { action: "runs", jobId })).entries;
      expect(entry?.runId).toBe(run.runId);
    },
    { timeout: 30_000, interval: 50 },
  );
  return entry;
}

const mainHistory = async (call: (name: string, args: Record<string, unknown>) => Promise<any>) =>
  ((await call("sessions_history", { sessionKey: "main" })).messages as Array<{ content: unknown }>).map(
    (m) => String(m.content),
  );

describe("serve --model: cron agentTurn jobs on the sessions runner", () => {
  it("an MCP client adds an agentTurn job and runs it: the sub-agent reads a file, an announce with no channel is not 'delivered' (9.6's error), the job persists (config model, then --model)", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-cron-"));
    writeFileSync(path.join(workspace, "notes.txt"), "release train leaves at noon\n");
    // the model from the config file (the restart below passes --model instead)
    const config = path.join(workspace, "clawtools.json");
    writeFileSync(config, JSON.stringify({ model: "openai/scripted", sessions: { visibility: "agent" } }));
    const { client, call } = await serve(workspace, ["--config", config], {
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "sk-loopback",
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["cron", "sessions_history"]),
    );
    const job = await call("cron", {
      action: "add",
      job: {
        name: "release-check",
        schedule: { kind: "every", everyMs: 3_600_000 },
        payload: { kind: "agentTurn", message: "READ<notes.txt>" },
      },
    });
    expect(job).toMatchObject({ agentId: "cli", sessionKey: "agent:cli:main", sessionTarget: "isolated" });
    const entry = await runToEnd(call, job.id);
    // the result reached no user, channel or host: not "delivered", but 9.6's error, the
    // result kept in the run's summary and session
    expect(entry).toMatchObject({
      status: "error",
      error: `delivery failed: ${NO_CHANNEL}`,
      summary: "The note says: release train leaves at noon",
      delivered: false,
      deliveryStatus: "failed",
      deliveryError: NO_CHANNEL,
    });
    // nothing was dropped unread into the MCP client's main session
    expect((await mainHistory(call)).filter((c) => c.includes("[Internal task completion event]"))).toEqual(
      [],
    );
    // the sub-agent's session is in the same store the sessions tools read
    const child = await call("sessions_history", { sessionKey: entry.sessionKey, includeTools: true });
    expect(child.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    // the run went to the loopback model with the real read tool
    const first = model.requests.find((r) => contentText(r.messages.at(-1)?.content) === "READ<notes.txt>");
    expect(first?.tools?.map((t) => t.function.name)).toContain("read");

    // jobs persist under the state directory: a new serve lists the job and its run log
    await client.close();
    const jobs = JSON.parse(readFileSync(path.join(workspace, ".state", "cron", "jobs.json"), "utf8"));
    expect(jobs.jobs.map((j: { id: string }) => j.id)).toEqual([job.id]);
    const again = await serve(workspace, ["--model", "openai/scripted"], {
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "sk-loopback",
    });
    expect((await again.call("cron", { action: "list" })).jobs.map((j: { id: string }) => j.id)).toEqual([
      job.id,
    ]);
    expect((await again.call("cron", { action: "runs", jobId: job.id })).entries[0].deliveryError).toBe(
      NO_CHANNEL,
    );
  });
});

describe("serve without a model", () => {
  it("a systemEvent job lands in the main session; an agentTurn job is refused, naming what to set", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-cron-"));
    const { call } = await serve(workspace, []);
    const event = await call("cron", {
      action: "add",
      job: {
        name: "standup",
        schedule: { kind: "every", everyMs: 3_600_000 },
        sessionTarget: "main",
        payload: { kind: "systemEvent", text: "Stand-up in 5 minutes" },
      },
    });
    expect(await runToEnd(call, event.id)).toMatchObject({ status: "ok" });
    expect(await mainHistory(call)).toEqual(["System: Stand-up in 5 minutes"]);

    const turn = await call("cron", {
      action: "add",
      job: {
        name: "digest",
        schedule: { kind: "every", everyMs: 3_600_000 },
        payload: { kind: "agentTurn", message: "summarise the inbox" },
      },
    });
    const entry = await runToEnd(call, turn.id);
    // the run's own error stands; its announce had nowhere to go either
    expect(entry).toMatchObject({ status: "error", error: NO_MODEL, deliveryError: NO_CHANNEL });
    expect((await mainHistory(call)).find((c) => c.includes("task: digest"))).toBeUndefined();
  });
});
