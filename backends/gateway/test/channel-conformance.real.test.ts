import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { channelConformance, type DeliveredMessage } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayChannel } from "../src/channel.js";
import type { GatewayClient } from "../src/client.js";
import { isGatewayError } from "../src/errors.js";
import type { RealGateway } from "../src/testing/index.js";
import { BOOT_TIMEOUT_MS, bootGateway, openclaw, operator, skipReason } from "./real.js";

// The far side: an OpenClaw channel plugin (test/fixtures/recorder-channel) that the Gateway
// loads from plugins.load.paths and that appends each delivery to a JSON-lines file read here.
const FIXTURE = fileURLToPath(new URL("./fixtures/recorder-channel", import.meta.url));

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

/**
 * The plugin copied into a temp folder whose node_modules/openclaw links to the installed
 * package, so its `openclaw/plugin-sdk/*` imports resolve as an installed plugin's do.
 */
function stagePlugin(root: string): string {
  if ("skip" in openclaw) throw new Error(openclaw.skip);
  const dir = path.join(root, "recorder-channel");
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(path.join(dir, "node_modules"));
  symlinkSync(path.dirname(openclaw.entry), path.join(dir, "node_modules", "openclaw"), "dir");
  return dir;
}

describe.skipIf(skipReason !== undefined)(
  "GatewayChannel against a real Gateway with a channel plugin",
  () => {
    let root: string;
    let file: string;
    let gateway: RealGateway;
    let client: GatewayClient;

    beforeAll(async () => {
      root = mkdtempSync(path.join(tmpdir(), "clawtools-recorder-"));
      file = path.join(root, "deliveries.jsonl");
      gateway = await bootGateway({
        config: {
          plugins: { load: { paths: [stagePlugin(root)] }, entries: { recorder: { enabled: true } } },
          channels: { recorder: { file } },
        },
      });
      client = operator(gateway);
      await client.connect();
    }, BOOT_TIMEOUT_MS);

    afterAll(async () => {
      await client?.close();
      await gateway?.stop();
      if (root) rmSync(root, { recursive: true, force: true });
    }, 60_000);

    it("send reaches the plugin's sendText, and the Gateway answers its message id", async () => {
      const channel = new GatewayChannel({ client, channel: "recorder" });
      const answer = await channel.execute({
        action: "send",
        to: "direct-check",
        text: "hello",
        idempotencyKey: "k-1",
      });
      const [entry] = recorded(file).filter((e) => e.to === "direct-check");
      expect(entry).toMatchObject({ kind: "send", to: "direct-check", text: "hello" });
      expect(answer).toMatchObject({ messageId: entry!.messageId, channel: "recorder" });
    });

    it("reply goes through message.action to the plugin's handleAction and is delivered", async () => {
      const channel = new GatewayChannel({ client, channel: "recorder" });
      const answer = await channel.execute({
        action: "reply",
        to: "reply-check",
        text: "a reply",
        replyTo: "m-1",
        idempotencyKey: "k-2",
      });
      const [entry] = recorded(file).filter((e) => e.to === "reply-check");
      expect(entry).toMatchObject({ kind: "reply", to: "reply-check", text: "a reply" });
      expect(answer).toMatchObject({ ok: true, messageId: entry!.messageId });
    });

    // 9.6 treats a message.action without conversationReadOrigin as delegated, and a delegated
    // conversation read (read, search, react) of a non-bundled plugin needs the current
    // conversation of an agent turn, which an operator call has none of
    it("read and search: 9.6 refuses a delegated conversation read of a non-bundled plugin", async () => {
      const channel = new GatewayChannel({ client, channel: "recorder" });
      for (const action of ["read", "search"] as const) {
        const error = await channel
          .execute({ action, to: "direct-check", query: "hello", idempotencyKey: `k-${action}` })
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
          params: { to: "direct-check", ...extra },
          conversationReadOrigin: "direct-operator",
          idempotencyKey: `k-direct-${action}`,
        });
        expect(answer).toMatchObject({ messages: [{ text: "hello" }] });
      }
    });

    // each test's far side is what reached its own target, so the one Gateway serves every test
    let n = 0;
    channelConformance(
      () => {
        const target = `conformance-${++n}`;
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
