import { describe, expect, it } from "vitest";
import { HISTORY_BYTES_MAX, type TranscriptMessage } from "../src/index.js";
import { setup } from "./helpers.js";

const at = Date.now();
const user = (content: TranscriptMessage["content"]): TranscriptMessage => ({
  role: "user",
  content,
  timestamp: at,
});

async function withMessages(messages: TranscriptMessage[]) {
  const t = setup();
  await t.service.ensure("agent:main:main");
  await t.service.store.append("agent:main:main", messages);
  return t;
}

describe("sessions_history caps", () => {
  it("cuts each text at 4,000 characters with the truncation suffix", async () => {
    const t = await withMessages([
      user("x".repeat(5_000)),
      user([{ type: "text", text: "y".repeat(4_001) }]),
    ]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages[0].content).toBe(`${"x".repeat(4_000)}\n…(truncated)…`);
    expect(h.messages[1].content).toEqual([{ type: "text", text: `${"y".repeat(4_000)}\n…(truncated)…` }]);
    expect(h).toMatchObject({
      contentTruncated: true,
      contentRedacted: false,
      truncated: false,
      droppedMessages: 0,
    });
  });

  it("a text of exactly 4,000 characters is kept whole", async () => {
    const t = await withMessages([user("z".repeat(4_000))]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages[0].content).toBe("z".repeat(4_000));
    expect(h.contentTruncated).toBe(false);
  });

  it("redacts secrets before cutting, and says so", async () => {
    const key = `sk-${"a1".repeat(12)}`;
    const t = await withMessages([
      user(`my key is ${key} ok`),
      user([{ type: "text", text: "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345" }]),
    ]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages[0].content).toBe("my key is [redacted] ok");
    expect(h.messages[1].content[0].text).toBe("Authorization: Bearer [redacted]");
    expect(h.contentRedacted).toBe(true);
    expect(JSON.stringify(h)).not.toContain(key);
  });

  it("drops usage and thinking signatures, and replaces image data by its size", async () => {
    const t = await withMessages([
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
          { type: "image", data: Buffer.alloc(300).toString("base64"), mimeType: "image/png" },
        ],
        usage: { input: 1 },
        timestamp: at,
      },
    ]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages[0].content).toEqual([
      { type: "thinking", thinking: "hmm" },
      { type: "image", mimeType: "image/png", omitted: true, bytes: 300 },
    ]);
    expect(h.messages[0].usage).toBeUndefined();
  });

  it("keeps the newest messages that fit in 80 KB and counts the rest as dropped", async () => {
    const messages = Array.from({ length: 40 }, (_, i) =>
      user(`${String(i).padStart(3, "0")}${"m".repeat(3_990)}`),
    );
    const t = await withMessages(messages);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.truncated).toBe(true);
    expect(h.droppedMessages + h.messages.length).toBe(40);
    expect(h.messages.at(-1).content.startsWith("039")).toBe(true);
    expect(h.bytes).toBeLessThanOrEqual(HISTORY_BYTES_MAX);
    expect(Buffer.byteLength(JSON.stringify(h.messages))).toBeLessThanOrEqual(
      HISTORY_BYTES_MAX + h.messages.length,
    );
    // one more message would not have fit
    expect(h.bytes + Buffer.byteLength(JSON.stringify(messages[0]))).toBeGreaterThan(HISTORY_BYTES_MAX);
  });

  it("answers a placeholder when even the newest message is over 80 KB after capping", async () => {
    const blocks = Array.from({ length: 30 }, () => ({ type: "text" as const, text: "b".repeat(4_000) }));
    const t = await withMessages([user("small"), user(blocks)]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages).toEqual([
      {
        role: "assistant",
        content: "[sessions_history omitted: message too large]",
        timestamp: expect.any(Number),
      },
    ]);
    expect(h).toMatchObject({ truncated: true, droppedMessages: 2 });
  });

  it("leaves tool results out unless includeTools, and honours limit", async () => {
    const t = await withMessages([
      user("one"),
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "exec",
        content: [{ type: "text", text: "out" }],
        timestamp: at,
      },
      user("two"),
      user("three"),
    ]);
    const plain = await t.json("sessions_history", { sessionKey: "main" });
    expect(plain.messages.map((m: TranscriptMessage) => m.role)).toEqual(["user", "user", "user"]);
    const tools = await t.json("sessions_history", { sessionKey: "main", includeTools: true, limit: 3 });
    expect(tools.messages.map((m: TranscriptMessage) => m.role)).toEqual(["toolResult", "user", "user"]);
    const last = await t.json("sessions_history", { sessionKey: "main", limit: 1 });
    expect(last.messages.map((m: TranscriptMessage) => m.content)).toEqual(["three"]);
  });
});
