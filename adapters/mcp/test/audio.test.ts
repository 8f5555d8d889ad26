import { createToolset, definePlugin, Type } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, importMcpTools, toCallToolResult } from "../src/index.js";

const wav = Buffer.from("RIFF....WAVEfmt fake audio").toString("base64");

function speaker() {
  return createToolset({
    plugins: [
      definePlugin({
        id: "speaker",
        version: "1.0.0",
        tools: [
          {
            factory: {
              name: "say",
              label: "Say",
              description: "Speaks",
              parameters: Type.Object({}),
              execute: async () => ({
                content: [
                  { type: "text", text: "Generated audio reply." },
                  { type: "audio", data: wav, mimeType: "audio/wav" },
                ],
                details: { format: "wav" },
              }),
            },
          },
        ],
      }),
    ],
  });
}

describe("audio content", () => {
  it("reaches an MCP client as an audio block, and comes back as one through importMcpTools", async () => {
    const server = createMcpServer(speaker());
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "audio", version: "1" });
    await client.connect(b);
    const result = await client.callTool({ name: "say", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "Generated audio reply." },
      { type: "audio", data: wav, mimeType: "audio/wav" },
    ]);
    const [imported] = await importMcpTools(client);
    const again = await imported!.execute("1", {});
    expect(again.content[1]).toEqual({ type: "audio", data: wav, mimeType: "audio/wav" });
    await client.close();
  });

  it("points a left-out clip at its resource link when the result carries one", () => {
    const uri = "clawtools://media/tts/reply.mp3";
    const out = toCallToolResult(
      {
        content: [
          { type: "audio", data: "A".repeat(4000), mimeType: "audio/mpeg" },
          { type: "resource_link", uri, name: "reply.mp3", mimeType: "audio/mpeg" },
        ],
        details: undefined,
      },
      { maxResultBytes: 1000 },
    );
    expect(out.content).toEqual([
      { type: "resource_link", uri, name: "reply.mp3", mimeType: "audio/mpeg" },
      {
        type: "text",
        text: `[Audio (audio/mpeg, 3,000 bytes) left out: the result would pass the server's limit of 1,000 bytes per result. Read it with resources/read ${uri}.]`,
      },
    ]);
  });

  it("leaves out audio that would pass the byte limit, saying so", () => {
    const big = "A".repeat(4000);
    const out = toCallToolResult(
      { content: [{ type: "audio", data: big, mimeType: "audio/mpeg" }], details: undefined },
      { maxResultBytes: 1000 },
    );
    expect(out.content).toEqual([
      {
        type: "text",
        text: "[Audio (audio/mpeg, 3,000 bytes) left out: the result would pass the server's limit of 1,000 bytes per result. Ask for a shorter clip.]",
      },
    ]);
  });
});
