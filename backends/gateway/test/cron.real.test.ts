import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayClient } from "../src/client.js";
import { GatewayCron } from "../src/cron.js";
import { isGatewayError } from "../src/errors.js";
import type { SharedGateway } from "../src/testing/index.js";
import { BOOT_TIMEOUT_MS, bootGateway, operator, skipReason } from "./real.js";

type Job = { id: string; name: string; schedule: { kind: string; everyMs?: number } };

describe.skipIf(skipReason !== undefined)("GatewayCron against a real OpenClaw Gateway", () => {
  let gateway: SharedGateway;
  let client: GatewayClient;
  let cron: GatewayCron;

  beforeAll(async () => {
    gateway = await bootGateway();
    client = operator(gateway);
    await client.connect();
    cron = new GatewayCron({ client });
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
  }, 60_000);

  const names = async () => ((await cron.list()) as { jobs: Job[] }).jobs.map((j) => j.name);

  it("adds a job in the Gateway, lists and gets it, updates it, and removes it", async () => {
    const added = (await cron.add({
      name: "clawtools-gateway-cron",
      schedule: { kind: "every", everyMs: 3_600_000 },
      sessionTarget: "main",
      wakeMode: "next-heartbeat",
      payload: { kind: "systemEvent", text: "hello from clawtools" },
    })) as Job;
    expect(added).toMatchObject({ id: expect.any(String), name: "clawtools-gateway-cron" });
    // the Gateway keeps jobs of its own (heartbeat-main, …) beside ours
    expect(await names()).toContain("clawtools-gateway-cron");
    expect(await cron.get(added.id)).toMatchObject({ id: added.id, name: "clawtools-gateway-cron" });
    expect(await cron.status()).toMatchObject({ enabled: true, jobs: expect.any(Number) });
    expect(await cron.update(added.id, { schedule: { kind: "every", everyMs: 7_200_000 } })).toMatchObject({
      id: added.id,
      schedule: { kind: "every", everyMs: 7_200_000 },
    });
    expect(await cron.runs(added.id, { limit: 5 })).toMatchObject({ entries: [], total: 0, limit: 5 });
    expect(await cron.remove(added.id)).toEqual({ ok: true, removed: true });
    expect(await names()).not.toContain("clawtools-gateway-cron");
    // a second remove: the Gateway's own "not found" reaches the caller
    await expect(cron.remove(added.id)).rejects.toThrow(
      `gateway cron.remove: INVALID_REQUEST: Automation not found: ${added.id}`,
    );
  });

  it("the Gateway's refusal of a bad job reaches the caller with its code and text", async () => {
    const error = await cron
      .add({
        name: "bad",
        schedule: { kind: "cron", expr: "61 * * * *" },
        sessionTarget: "main",
        wakeMode: "next-heartbeat",
        payload: { kind: "systemEvent", text: "x" },
      })
      .catch((e: unknown) => e);
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: "INVALID_REQUEST" });
    expect((error as Error).message).toContain("invalid cron.add params");
    expect((error as Error).message).toContain("Invalid value for minute: 61");
  });
});
