import { describe, expect, it } from "vitest";
import { toModelOutput } from "../src/index.js";

describe("toModelOutput with an audio block (a tts reply)", () => {
  it("names the audio in text and keeps images as image data", () => {
    const output = toModelOutput({
      content: [
        { type: "text", text: "Generated audio reply." },
        { type: "audio", data: "SUQz", mimeType: "audio/mpeg" },
        { type: "image", data: "iVBO", mimeType: "image/png" },
      ],
      details: {},
    });
    expect(output).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Generated audio reply." },
        { type: "text", text: "[audio audio/mpeg]" },
        { type: "image-data", data: "iVBO", mediaType: "image/png" },
      ],
    });
  });
});
