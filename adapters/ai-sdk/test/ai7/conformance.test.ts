import { describe, it, vi } from "vitest";
import { NODE_TOO_OLD, SKIP_REASON } from "./node.js";

// The AgentRunner conformance suite of ../conformance.test.ts, with "ai" resolved to AI SDK 7 (and
// its openai-compatible provider 3) everywhere, this package's source included.
vi.mock("ai", () => import("ai7"));
vi.mock("@ai-sdk/openai-compatible", () => import("ai-sdk-openai-compatible-3"));

if (NODE_TOO_OLD) describe.skip(`AI SDK 7: ${SKIP_REASON}`, () => it("skipped", () => {}));
else
  await describe("on AI SDK 7", async () => {
    await import("../conformance.test.js");
  });
