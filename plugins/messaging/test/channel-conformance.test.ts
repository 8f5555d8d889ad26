import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { channelConformance, type DeliveredMessage } from "@clawtools/testing";
import { afterAll } from "vitest";
import { createInboxChannel, type InboxEntry } from "../src/channels/inbox.js";
import { createWebhookChannel } from "../src/channels/webhook.js";
import { fakeServer, reply } from "./fake-server.js";

// the inbox's far side is its own log file, read here without the channel
channelConformance(
  () => {
    const channel = createInboxChannel({ stateDir: mkdtempSync(path.join(tmpdir(), "inbox-conformance-")) });
    const delivered = (): DeliveredMessage[] => {
      let raw = "";
      try {
        raw = readFileSync(channel.logPath, "utf8");
      } catch {
        return [];
      }
      return raw
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as InboxEntry)
        .map((e) => ({
          to: e.to,
          ...(e.text !== undefined ? { text: e.text } : {}),
          ...(e.media
            ? { media: { filename: e.media.filename, bytes: readFileSync(e.media.path).length } }
            : {}),
        }));
    };
    return { channel, delivered };
  },
  { name: "inbox channel conformance" },
);

// the webhook's far side is a loopback receiver that checks the signature's presence
const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
const secret = "conformance-signing-secret-0123456789";
channelConformance(
  async () => {
    const server = await fakeServer((req, res) => {
      if (!String(req.headers["x-clawtools-signature"] ?? "").startsWith("sha256=")) return reply(res, 401);
      reply(res, 200, { id: randomUUID() });
    });
    servers.push(server);
    const channel = createWebhookChannel({
      url: `${server.base}/hook`,
      secret,
      allowPrivateNetwork: true,
      mediaMaxBytes: 1024,
      retries: 0,
    });
    const delivered = (): DeliveredMessage[] =>
      server.requests.map((r) => ({
        to: r.json.to,
        ...(r.json.text !== null ? { text: r.json.text } : {}),
        ...(r.json.media
          ? {
              media: {
                filename: r.json.media.filename,
                bytes: Buffer.from(r.json.media.base64, "base64").length,
              },
            }
          : {}),
      }));
    return { channel, delivered, secrets: [secret] };
  },
  { name: "webhook channel conformance" },
);
