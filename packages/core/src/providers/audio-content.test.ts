import { describe, expect, it } from "vitest";
import type { AgentToolResult } from "../tool.js";
import {
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  toOpenAIChatToolMessages,
  toOpenAIResponsesOutput,
} from "./definitions.js";

// A tts reply: text plus an audio block. No provider takes audio in a tool result, so each
// conversion keeps the text and names the audio in a placeholder, never sends it as an image.
const result: AgentToolResult<unknown> = {
  content: [
    { type: "text", text: "Generated audio reply." },
    { type: "audio", data: "SUQz", mimeType: "audio/mpeg" },
    { type: "image", data: "iVBO", mimeType: "image/png" },
  ],
  details: {},
};

describe("audio content blocks in provider results", () => {
  it("become a placeholder for Anthropic and OpenAI Responses; images stay images", () => {
    expect(toAnthropicToolResult("u1", result).content).toEqual([
      { type: "text", text: "Generated audio reply." },
      { type: "text", text: "[audio audio/mpeg]" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
    ]);
    expect(toOpenAIResponsesOutput("c1", result).output).toEqual([
      { type: "input_text", text: "Generated audio reply." },
      { type: "input_text", text: "[audio audio/mpeg]" },
      { type: "input_image", image_url: "data:image/png;base64,iVBO", detail: "auto" },
    ]);
    const noImage = { ...result, content: result.content.slice(0, 2) };
    expect(toOpenAIResponsesOutput("c1", noImage).output).toBe("Generated audio reply.\n[audio audio/mpeg]");
  });

  it("never reach OpenAI Chat or Gemini as image parts", () => {
    const [tool, user] = toOpenAIChatToolMessages("c1", result);
    expect(tool!.content).toBe("Generated audio reply.");
    expect(JSON.stringify(user)).not.toContain("audio");
    const gemini = toGeminiFunctionResponse("tts", result).functionResponse;
    expect(gemini.parts).toEqual([{ inlineData: { mimeType: "image/png", data: "iVBO" } }]);
  });
});
