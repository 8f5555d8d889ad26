import { REDACTED_MARKER, registerSecret } from "@clawtools/core/safety";
import { afterEach, describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../src/index.js";
import { setup } from "./helpers.js";

const undo: Array<() => void> = [];
afterEach(() => {
  for (const u of undo.splice(0)) u();
});

// A failed model turn as the runners store it: the provider's error text in errorMessage.
const failed = (errorMessage: string): TranscriptMessage =>
  ({
    role: "assistant",
    content: [],
    stopReason: "error",
    errorMessage,
    timestamp: Date.now(),
  }) as TranscriptMessage;

describe("sessions_history redacts a provider's error", () => {
  it("takes key-shaped secrets out of errorMessage, and says so", async () => {
    const key = `sk-${"b2".repeat(12)}`;
    const t = setup();
    await t.service.ensure("agent:main:main");
    await t.service.store.append("agent:main:main", [failed(`401 Incorrect API key provided: ${key}`)]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages[0].errorMessage).toBe("401 Incorrect API key provided: [redacted]");
    expect(h.contentRedacted).toBe(true);
    expect(JSON.stringify(h)).not.toContain(key);
  });

  it("stays linear on adversarial near-misses of the key patterns (no regex backtracking blow-up)", async () => {
    // long runs that start like a key but never end like one: a backtracking pattern would stall
    // (under the 80 KB history cap; quadratic work on these would be ~10^9 steps)
    const near = `sk-${"-".repeat(25_000)} ghp_${"a".repeat(25_000)}_x xoxb-${"-".repeat(25_000)}`;
    const t = setup();
    await t.service.ensure("agent:main:main");
    await t.service.store.append("agent:main:main", [failed(near)]);
    const h = await t.json("sessions_history", { sessionKey: "main" });
    expect(h.messages[0].errorMessage).toBe(near);
  });

  it("takes a registered secret of any shape out of errorMessage, and out of the stored transcript", async () => {
    const token = "gateway-token-of-any-shape:42";
    const t = setup();
    await t.service.ensure("agent:main:main");
    undo.push(registerSecret(token));
    await t.service.store.append("agent:main:main", [failed(`forbidden for ${token}`)]);
    for (const u of undo.splice(0)) u(); // the stored line was redacted on the way in
    const raw = await t.service.store.history("agent:main:main", {});
    expect(JSON.stringify(raw)).not.toContain(token);
    expect((raw[0] as { errorMessage?: string }).errorMessage).toBe(`forbidden for ${REDACTED_MARKER}`);
  });
});
