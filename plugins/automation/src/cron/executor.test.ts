import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { afterEach, describe, expect, it } from "vitest";
import { harness } from "../../test/helpers.js";
import { NO_CHANNEL, NO_DELIVERY_TARGET } from "./executor.js";

const servers: Server[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A loopback webhook receiver answering each POST with the next status of `statuses` (then 200). */
async function receiver(statuses: number[] = []) {
  const received: Array<{ method: string; type: string; body: any }> = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    received.push({
      method: req.method ?? "",
      type: req.headers["content-type"] ?? "",
      body: JSON.parse(text),
    });
    res.statusCode = statuses.shift() ?? 200;
    res.end("ok");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const webhookJob = (to: string) => ({
  name: "nightly",
  schedule: { kind: "every", everyMs: 60_000 },
  sessionTarget: "isolated",
  payload: { kind: "agentTurn", message: "write the report" },
  delivery: { mode: "webhook", to },
});

describe("webhook delivery", () => {
  it("POSTs the run's outcome as JSON to a loopback server when private targets are allowed, retrying a 503", async () => {
    const { url, received } = await receiver([503]);
    const h = await harness({ executor: { webhookPolicy: { allowPrivateNetwork: true } } });
    stops.push(() => h.service.stop());
    const job = await h.service.add(webhookJob(url));
    await h.advance(60_000);
    expect(received).toHaveLength(2);
    expect(received[1]).toEqual({
      method: "POST",
      type: "application/json",
      body: {
        jobId: job.id,
        name: "nightly",
        status: "ok",
        summary: "done",
        sessionKey: h.runner.calls[0]!.sessionKey,
        runAtMs: job.createdAtMs + 60_000,
        durationMs: 0,
      },
    });
    expect(h.runner.calls[0]!.sessionKey).toMatch(new RegExp(`^agent:main:cron:${job.id}:run:`));
    expect((await h.store.readRuns(job.id)).entries[0]).toMatchObject({
      status: "ok",
      delivered: true,
      deliveryStatus: "delivered",
    });
  });

  it("refuses a private target by default: nothing is sent and the run is an error naming why", async () => {
    const { url, received } = await receiver();
    const h = await harness();
    stops.push(() => h.service.stop());
    const job = await h.service.add(webhookJob(url));
    await h.advance(60_000);
    expect(received).toHaveLength(0);
    const entry = (await h.store.readRuns(job.id)).entries[0]!;
    expect(entry).toMatchObject({ status: "error", delivered: false, deliveryStatus: "failed" });
    expect(entry.error).toBe(
      `delivery failed: webhook ${new URL(url).origin} refused: Blocked hostname or private/internal/special-use IP address`,
    );
  });

  it("a 4xx is not retried; bestEffort keeps the run ok", async () => {
    const { url, received } = await receiver([404]);
    const h = await harness({ executor: { webhookPolicy: { allowPrivateNetwork: true } } });
    stops.push(() => h.service.stop());
    const job = await h.service.add({
      ...webhookJob(url),
      delivery: { mode: "webhook", to: url, bestEffort: true },
    });
    await h.advance(60_000);
    expect(received).toHaveLength(1);
    expect((await h.store.readRuns(job.id)).entries[0]).toMatchObject({
      status: "ok",
      deliveryStatus: "failed",
      deliveryError: `webhook ${new URL(url).origin} answered HTTP 404`,
    });
  });
});

describe("announce delivery", () => {
  it("an isolated agentTurn announces its reply into the session that created the job", async () => {
    const h = await harness();
    stops.push(() => h.service.stop());
    h.runner.script.push({ status: "ok", reply: "3 new mails, none urgent" });
    const job = await h.service.add(
      {
        name: "inbox",
        schedule: { kind: "every", everyMs: 60_000 },
        payload: { kind: "agentTurn", message: "check mail" },
      },
      { sessionKey: "agent:main:webchat:1" },
    );
    expect(job.delivery).toEqual({ mode: "announce" });
    await h.advance(60_000);
    const history = await h.sessions.history("agent:main:webchat:1");
    // OpenClaw's internal completion event, source cron
    expect(history).toHaveLength(1);
    expect(history[0]!.role).toBe("user");
    const event = history[0]!.content as string;
    expect(event.split("\n").slice(0, 3)).toEqual([
      "OpenClaw runtime context (internal):",
      "[Internal task completion event]",
      "source: cron",
    ]);
    expect(event).toContain("\ntype: cron job\ntask: inbox\nstatus: completed successfully\n");
    expect(event).toContain(
      "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\n3 new mails, none urgent\n<<<END_UNTRUSTED_CHILD_RESULT>>>",
    );
    expect(h.runner.calls[0]).toMatchObject({ message: "check mail", timeoutMs: 600_000 });
  });

  it("an agentTurn whose announce has nowhere to go is a failed delivery, not 'ok / delivered'", async () => {
    const h = await harness();
    stops.push(() => h.service.stop());
    h.runner.script.push({ status: "ok", reply: "report ready" });
    // made outside any session, naming no channel: nobody would ever read the announce
    const job = await h.service.add({
      name: "orphan",
      schedule: { kind: "every", everyMs: 60_000 },
      payload: { kind: "agentTurn", message: "write the report" },
    });
    expect(job.sessionKey).toBeUndefined();
    await h.advance(60_000);
    const entry = (await h.store.readRuns(job.id)).entries[0]!;
    expect(entry).toMatchObject({
      status: "error",
      error: `delivery failed: ${NO_DELIVERY_TARGET}`,
      summary: "report ready",
      delivered: false,
      deliveryStatus: "failed",
      deliveryError: NO_DELIVERY_TARGET,
    });
    expect((await h.store.get(job.id))?.state).toMatchObject({
      lastRunStatus: "error",
      lastDeliveryStatus: "failed",
    });
    // and no session was made up to hold it
    expect(await h.sessions.get("agent:main:main")).toBeUndefined();
  });

  it("where sessions reach nobody (an MCP host's), an announce with no channel fails as 9.6's: 'Channel is required'", async () => {
    const h = await harness({ executor: { laterResults: "pull" } });
    stops.push(() => h.service.stop());
    h.runner.script.push({ status: "ok", reply: "3 new mails" });
    // made by an MCP client's session, which no message wakes and no one reads
    const job = await h.service.add(
      {
        name: "inbox",
        schedule: { kind: "every", everyMs: 60_000 },
        sessionTarget: "isolated",
        payload: { kind: "agentTurn", message: "check mail" },
      },
      { sessionKey: "agent:cli:main" },
    );
    expect(job.delivery).toEqual({ mode: "announce" });
    await h.advance(60_000);
    const entry = (await h.store.readRuns(job.id)).entries[0]!;
    expect(entry).toMatchObject({
      status: "error",
      error: `delivery failed: ${NO_CHANNEL}`,
      summary: "3 new mails",
      delivered: false,
      deliveryStatus: "failed",
      deliveryError: NO_CHANNEL,
    });
    expect(NO_CHANNEL.startsWith("Channel is required (no configured channels detected). ")).toBe(true);
    // nothing was written into the creating session as if it had been told
    expect(await h.sessions.history("agent:cli:main")).toEqual([]);
  });

  it("a channel announce with no announcer configured is a failed delivery naming the target", async () => {
    const h = await harness();
    stops.push(() => h.service.stop());
    const job = await h.service.add({
      name: "to-telegram",
      schedule: { kind: "every", everyMs: 60_000 },
      payload: { kind: "agentTurn", message: "m" },
      delivery: { mode: "announce", channel: "telegram", to: "42" },
    });
    await h.advance(60_000);
    expect((await h.store.readRuns(job.id)).entries[0]).toMatchObject({
      status: "error",
      delivered: false,
      deliveryStatus: "failed",
      deliveryError: "no channel announcer configured for delivery to telegram:42",
    });
  });
});

describe("system events into a session", () => {
  it("reads the target session once, not before every event; a session deleted meanwhile is made again and gets the event", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cron-events-"));
    const store = new FileSessionStore(path.join(dir, "sessions"));
    let gets = 0;
    // the executor's view of the store, counting its reads
    const sessions = {
      get: (key: string) => {
        gets++;
        return store.get(key);
      },
      create: store.create.bind(store),
      append: store.append.bind(store),
    };
    const h = await harness({ dir, executor: { sessions } });
    stops.push(() => h.service.stop());
    await h.service.add({
      name: "tick",
      schedule: { kind: "every", everyMs: 60_000 },
      sessionTarget: "main",
      payload: { kind: "systemEvent", text: "tick" },
    });
    for (let i = 0; i < 3; i++) await h.advance(60_000);
    const events = async () =>
      (await store.history("agent:main:main")).filter((m) => m.content === "System: tick");
    expect(await events()).toHaveLength(3);
    expect(gets).toBe(1);
    await store.delete("agent:main:main");
    await h.advance(60_000);
    expect(await events()).toHaveLength(1);
    expect(gets).toBe(2);
    const [job] = await h.store.list();
    expect((await h.store.readRuns(job!.id)).entries[0]).toMatchObject({ status: "ok" });
  });
});
