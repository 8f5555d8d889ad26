import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { channelConformance, type DeliveredMessage } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayChannel } from "../src/channel.js";
import type { GatewayClient } from "../src/client.js";
import { isGatewayError } from "../src/errors.js";
import type { SharedGateway } from "../src/testing/index.js";
import { BOOT_TIMEOUT_MS, bootGateway, operator, skipReason } from "./real.js";

// The far side: the broker's "recorder" Gateway (recorder-profile.ts) loads an OpenClaw channel
// plugin that appends each delivery to a JSON-lines file, read here. Its targets and idempotency
// keys are this run's own: a Gateway lent again keeps the file and its dedupe cache.
const RUN = randomUUID().slice(0, 8);
const DIRECT = `direct-check-${RUN}`;
const REPLY = `reply-check-${RUN}`;

// 9.6's refusal of a conversation read that GatewayChannel's message.action makes (see below)
const DELEGATED_READ =
  "Delegated recorder:<action> requires the exact current conversation and account for this plugin.";

interface Recorded {
  kind: string;
  to: string;
  text?: string;
  messageId: string;
}

function recorded(file: string): Recorded[] {
  let raw = "";
  try {
    raw = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return raw
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Recorded);
}

describe.skipIf(skipReason !== undefined)(
  "GatewayChannel against a real Gateway with a channel plugin",
  () => {
    let file: string;
    let gateway: SharedGateway;
    let client: GatewayClient;

    beforeAll(async () => {
      gateway = await bootGateway({ profile: "recorder" });
      file = gateway.info.deliveries as string;
      client = operator(gateway);
      await client.connect();
    }, BOOT_TIMEOUT_MS);

    afterAll(async () => {
      await client?.close();
      await gateway?.stop();
    }, 60_000);

    it("send reaches the plugin's sendText, and the Gateway answers its message id", async () => {
      const channel = new GatewayChannel({ client, channel: "recorder" });
      const answer = await channel.execute({
        action: "send",
        to: DIRECT,
        text: "hello",
        idempotencyKey: `k-1-${RUN}`,
      });
      const [entry] = recorded(file).filter((e) => e.to === DIRECT);
      expect(entry).toMatchObject({ kind: "send", to: DIRECT, text: "hello" });
      expect(answer).toMatchObject({ messageId: entry!.messageId, channel: "recorder" });
    });

    it("reply goes through message.action to the plugin's handleAction and is delivered", async () => {
      const channel = new GatewayChannel({ client, channel: "recorder" });
      const answer = await channel.execute({
        action: "reply",
        to: REPLY,
        text: "a reply",
        replyTo: "m-1",
        idempotencyKey: `k-2-${RUN}`,
      });
      const [entry] = recorded(file).filter((e) => e.to === REPLY);
      expect(entry).toMatchObject({ kind: "reply", to: REPLY, text: "a reply" });
      expect(answer).toMatchObject({ ok: true, messageId: entry!.messageId });
    });

    // 9.6 treats a message.action without conversationReadOrigin as delegated, and a delegated
    // conversation read (read, search, react) of a non-bundled plugin needs the current
    // conversation of an agent turn, which an operator call has none of
    it("read and search: 9.6 refuses a delegated conversation read of a non-bundled plugin", async () => {
      const channel = new GatewayChannel({ client, channel: "recorder" });
      for (const action of ["read", "search"] as const) {
        const error = await channel
          .execute({ action, to: DIRECT, query: "hello", idempotencyKey: `k-${action}-${RUN}` })
          .catch((e: unknown) => e);
        expect(isGatewayError(error)).toBe(true);
        expect((error as Error).message).toBe(
          `gateway message.action: UNAVAILABLE: Error: ${DELEGATED_READ.replace("<action>", action)}`,
        );
      }
    });

    it("read and search reach the plugin when the operator call says it is one (direct-operator)", async () => {
      for (const [action, extra] of [
        ["read", {}],
        ["search", { query: "HELLO" }],
      ] as const) {
        const answer = await client.request("message.action", {
          channel: "recorder",
          action,
          params: { to: DIRECT, ...extra },
          conversationReadOrigin: "direct-operator",
          idempotencyKey: `k-direct-${action}-${RUN}`,
        });
        expect(answer).toMatchObject({ messages: [{ text: "hello" }] });
      }
    });

    // each test's far side is what reached its own target, so the one Gateway serves every test
    let n = 0;
    channelConformance(
      () => {
        const target = `conformance-${RUN}-${++n}`;
        const delivered = (): DeliveredMessage[] =>
          recorded(file)
            .filter((e) => e.to === target && typeof e.text === "string")
            .map((e) => ({ to: e.to, text: e.text }));
        return { channel: new GatewayChannel({ client, channel: "recorder" }), delivered, target };
      },
      {
        name: "GatewayChannel: Channel conformance",
        stepTimeoutMs: 60_000,
        lacks: {
          read: `9.6 refuses it: ${DELEGATED_READ.replace("<action>", "read")}`,
          search: `9.6 refuses it: ${DELEGATED_READ.replace("<action>", "search")}`,
        },
      },
    );
  },
);
