import { describe, expect, it } from "vitest";
import { toPiTool } from "../src/index.js";

describe("toPiTool with an audio block (a tts reply)", () => {
  it("hands pi text and images only: the audio is named in text", async () => {
    const tool = toPiTool({
      name: "tts",
      label: "tts",
      description: "speak",
      parameters: { type: "object", properties: {} },
      execute: async () => ({
        content: [
          { type: "text", text: "Generated audio reply." },
          { type: "audio", data: "SUQz", mimeType: "audio/ogg" },
        ],
        details: { provider: "espeak" },
      }),
    });
    const result = await tool.execute("c1", {} as never);
    expect(result).toEqual({
      content: [
        { type: "text", text: "Generated audio reply." },
        { type: "text", text: "[audio audio/ogg]" },
      ],
      details: { provider: "espeak" },
    });
  });
});
