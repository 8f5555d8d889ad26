import { describe, expect, it } from "vitest";
import {
  OWNER_ONLY_TOOL_ERROR,
  ToolAuthorizationError,
  ToolInputError,
  ToolUnavailableError,
} from "./errors.js";
import { imageResult, jsonResult, textResult } from "./results.js";

describe("result helpers", () => {
  it("jsonResult pretty-prints with two spaces and keeps the payload as details", () => {
    const payload = { status: "ok", count: 2 };
    expect(jsonResult(payload)).toEqual({
      content: [{ type: "text", text: '{\n  "status": "ok",\n  "count": 2\n}' }],
      details: payload,
    });
  });

  it("textResult carries optional details", () => {
    expect(textResult("hi", { n: 1 })).toEqual({
      content: [{ type: "text", text: "hi" }],
      details: { n: 1 },
    });
  });

  it("imageResult puts text before the image and records the media path", () => {
    const result = imageResult({
      label: "shot",
      path: "/tmp/a.png",
      base64: "AAAA",
      mimeType: "image/png",
      extraText: "x",
    });
    expect(result.content).toEqual([
      { type: "text", text: "x" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
    expect(result.details).toMatchObject({ media: { mediaUrl: "/tmp/a.png" } });
  });
});

describe("errors", () => {
  it("carries the HTTP-like status", () => {
    expect(new ToolInputError("bad").status).toBe(400);
    const denied = new ToolAuthorizationError(OWNER_ONLY_TOOL_ERROR);
    expect(denied.status).toBe(403);
    expect(denied).toBeInstanceOf(ToolInputError);
    expect(denied.message).toBe("Tool restricted to owner senders.");
    expect(new ToolUnavailableError("no workspace root").message).toBe("no workspace root");
  });
});
