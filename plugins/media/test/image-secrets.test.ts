import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createMediaPlugin } from "../src/plugin.js";
import { fakeServer } from "./fake-server.js";

const KEY = "sk-image-key-echoed-0123456";
// a 1×1 PNG
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

// A provider that refuses the key and echoes it back in its error.
const server = await fakeServer((req, res) => {
  const key = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
  res.writeHead(401, { "content-type": "application/json" });
  res.end(
    JSON.stringify({ error: { message: `Incorrect API key provided: ${key}`, code: "invalid_api_key" } }),
  );
});
afterAll(() => server.close());

function image() {
  const workspace = mkdtempSync(path.join(tmpdir(), "image-secrets-"));
  writeFileSync(path.join(workspace, "pixel.png"), PNG);
  const set = createToolset({
    plugins: [
      createMediaPlugin({
        image: { model: "openai/gpt-vision", baseUrl: `${server.base}/v1`, apiKey: KEY },
        env: {},
      }),
    ],
    context: { workspaceDir: workspace, stateDir: workspace },
    policy: { profile: "full" },
  });
  const tool = set.tools.find((t) => t.name === "image")!;
  return (args: Record<string, unknown>) => tool.execute("i", args) as Promise<AgentToolResult<unknown>>;
}
const errorOf = (r: AgentToolResult<unknown>) =>
  JSON.parse(r.content.map((c) => (c.type === "text" ? c.text : "")).join("")).error as string;

describe("image and the model key", () => {
  it("a 401 echoing the key comes back without it", async () => {
    const result = await image()({ image: "pixel.png" });
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(errorOf(result)).toContain("Incorrect API key provided: [redacted]");
  });

  it("a model of another provider named in the call never gets the configured key", async () => {
    const before = server.requests.length;
    const result = await image()({ image: "pixel.png", model: "xai/grok-2-vision" });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toContain("set XAI_API_KEY");
    expect(server.requests.length).toBe(before);
  });
});
