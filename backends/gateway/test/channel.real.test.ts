import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayChannel } from "../src/channel.js";
import type { GatewayClient } from "../src/client.js";
import { isGatewayError } from "../src/errors.js";
import type { SharedGateway } from "../src/testing/index.js";
import { BOOT_TIMEOUT_MS, bootGateway, operator, skipReason } from "./real.js";

describe.skipIf(skipReason !== undefined)("GatewayChannel against a real OpenClaw Gateway", () => {
  let gateway: SharedGateway;
  let client: GatewayClient;
  let channel: GatewayChannel;

  beforeAll(async () => {
    gateway = await bootGateway();
    client = operator(gateway);
    await client.connect();
    channel = new GatewayChannel({ client });
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
  }, 60_000);

  it("send with no channel configured in the Gateway: its 'Channel is required' reaches the caller verbatim", async () => {
    const error = await channel
      .execute({ action: "send", to: "+15550001", text: "hi", idempotencyKey: "k-1" })
      .catch((e: unknown) => e);
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: "INVALID_REQUEST", method: "send" });
    expect((error as Error).message).toMatch(
      /^gateway send: INVALID_REQUEST: Error: Channel is required \(no configured channels detected\)\. Run openclaw channels add/,
    );
  });

  it("other actions go to message.action, and the Gateway's refusal names it", async () => {
    const error = await channel
      .execute({ action: "react", to: "+15550001", messageId: "m1", emoji: "👍", idempotencyKey: "k-2" })
      .catch((e: unknown) => e);
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ method: "message.action" });
    expect((error as Error).message).toMatch(/^gateway message\.action: /);
  });

  it("prepare (dryRun) answers the Gateway call that would be made, locally", () => {
    expect(channel.prepare({ action: "send", to: "+1", text: "x", idempotencyKey: "k" })).toEqual([
      {
        method: "POST",
        url: "gateway:send",
        headers: {},
        json: { to: "+1", message: "x", idempotencyKey: "k" },
      },
    ]);
  });
});
