import { describe, expect, it, vi } from "vitest";
import { NODE_TOO_OLD, SKIP_REASON } from "./node.js";

// The tests beside this file run this package against AI SDK 7: "ai" is AI SDK 7 here, for the
// source too (an export AI SDK 6 does not have), and a tool error reads as the tool's own text.
vi.mock("ai", () => import("ai7"));

describe.skipIf(NODE_TOO_OLD)(
  `"ai" is AI SDK 7 in these tests (${NODE_TOO_OLD ? SKIP_REASON : "Node >= 22"})`,
  () => {
    it("resolves to ai 7 for the tests and the adapter's source", async () => {
      const ai = await import("ai");
      expect("NoSuchProviderReferenceError" in ai).toBe(true);
      const { toAiSdkTools, ClawtoolsToolError } = await import("../../src/index.js");
      expect(Object.keys(toAiSdkTools([]))).toEqual([]);
      const error = new ClawtoolsToolError("t", { content: [{ type: "text", text: "no such file" }] });
      expect(String(error)).toBe("no such file");
      expect(error.name).toBe("ClawtoolsToolError");
    });
  },
);
