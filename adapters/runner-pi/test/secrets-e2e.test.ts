import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, type AnyAgentTool, createToolset, type ToolContext } from "@clawtools/core";
import { createSessionsPlugin } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPiRunner } from "../src/runner.js";

const KEY = "sk-live-echoed-by-the-provider-0123";
const seen: Array<{ auth: string; model: string }> = [];
let server: ReturnType<typeof createServer>;
let baseUrl: string;

// A provider that refuses the key and echoes it back in its error body, as some do.
beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const auth = String(req.headers.authorization ?? "");
    seen.push({ auth, model: (JSON.parse(body || "{}") as { model?: string }).model ?? "" });
    res.writeHead(401, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${auth.replace(/^Bearer /, "")}. You can find your API key at https://example.invalid.`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => server?.close());

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function setup() {
  const stateDir = mkdtempSync(path.join(tmpdir(), "secrets-state-"));
  const sessions = createSessionsPlugin({
    visibility: "agent",
    runner: ({ store }) =>
      createPiRunner({ store, model: { model: "openai/scripted", baseUrl, apiKey: KEY }, env: {} }),
  });
  const ctx: ToolContext = { stateDir, agentId: "main", sessionKey: "main" };
  const set = createToolset({
    plugins: [sessions],
    context: ctx,
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  const call = async (name: string, args: Record<string, unknown>) =>
    (await (set.tools.find((t) => t.name === name) as AnyAgentTool).execute(
      "c",
      args,
    )) as AgentToolResult<unknown>;
  return { call, stateDir, service: sessions.serviceFor(ctx) };
}

describe("a model endpoint that echoes the key back", () => {
  it("never puts the key into sessions_send, sessions_list, sessions_history or the transcript on disk", async () => {
    const { call, stateDir, service } = setup();
    await service.ensure("agent:main:helper", "main");
    const sent = await call("sessions_send", { sessionKey: "agent:main:helper", message: "hello" });
    await service.idle();
    const list = await call("sessions_list", {});
    const history = await call("sessions_history", { sessionKey: "agent:main:helper", includeTools: true });
    // the provider really got the key and answered with it
    expect(seen.at(-1)?.auth).toBe(`Bearer ${KEY}`);
    for (const result of [sent, list, history]) {
      expect(JSON.stringify(result)).not.toContain(KEY);
    }
    expect(text(sent)).toContain("Incorrect API key provided: [redacted]");
    const stored = JSON.parse(text(history)) as { messages: Array<{ errorMessage?: string }> };
    expect(stored.messages.map((m) => m.errorMessage).filter(Boolean)).toEqual([
      expect.stringContaining("Incorrect API key provided: [redacted]"),
    ]);
    const files = filesUnder(stateDir);
    expect(files.some((f) => f.endsWith(".jsonl"))).toBe(true);
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain(KEY);
  });

  it("a session or spawn naming another provider never gets this key: refused, naming the variable", async () => {
    const { call, service } = setup();
    const before = seen.length;
    const spawned = await call("sessions_spawn", { task: "do it", model: "xai/grok-2" });
    await service.idle();
    await call("session_status", { model: "xai/grok-2" });
    const sent = await call("sessions_send", { sessionKey: "main", message: "hello" });
    for (const result of [spawned, sent]) expect(JSON.stringify(result)).not.toContain(KEY);
    expect(text(sent)).toContain("set XAI_API_KEY");
    // nothing at all went out with the OpenAI key for the xAI model
    expect(seen.slice(before).filter((s) => s.model === "grok-2")).toEqual([]);
  });
});
