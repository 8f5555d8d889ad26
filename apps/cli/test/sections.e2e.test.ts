import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import Module from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bin, json, requireBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// The wave-2 sections through `clawtools serve`, driven by the MCP SDK's own client.
const clients: Client[] = [];
async function serve(args: string[], env: Record<string, string> = {}) {
  const workspace = mkdtempSync(path.join(tmpdir(), "cli-sections-"));
  const { client } = await connectCli(
    ["serve", "--workspace", workspace, "--state-dir", path.join(workspace, ".state"), ...args],
    { env, stderr: "ignore" },
  );
  clients.push(client);
  return {
    client,
    workspace,
    call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }),
  };
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

beforeAll(requireBuilt);

describe("serve --profile messaging", () => {
  it("serves message over the inbox: an MCP client sends and reads back", async () => {
    // the inbox is a channel only when configured (with none, message refuses as OpenClaw does)
    const config = path.join(mkdtempSync(path.join(tmpdir(), "cli-inbox-")), "config.json");
    writeFileSync(config, JSON.stringify({ messaging: { channels: { inbox: {} } } }));
    const { client, call } = await serve(["--profile", "messaging", "--config", config]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("message");
    const sent = json(await call("message", { action: "send", target: "ops", message: "deployed" }));
    expect(sent).toMatchObject({ channel: "inbox", to: "ops", via: "direct" });
    const read = json(await call("message", { action: "read", target: "ops" }));
    expect(read.messages.map((m: { text: string }) => m.text.split("\n")[3])).toEqual(["deployed"]);
    expect(read.messages[0].id).toBe(sent.result.messageId);
  });
});

describe("serve --profile full with the browser", () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<title>Counter</title><button onclick="this.textContent='clicked'">Press</button>`),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => server?.close());

  // a serve start and then Chromium's, in the first browser call: a minute on a loaded CI machine
  it("drives open → snapshot → act → screenshot", async () => {
    const { client, call } = await serve(["--profile", "full", "--allow-private-network"]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["browser", "canvas"]));
    // open wraps page text (the title) as external content: the JSON sits between the markers
    const openText = text(await call("browser", { action: "open", targetUrl: url }));
    const opened = JSON.parse(/\{[\s\S]*\}/.exec(openText)![0]);
    expect(opened.title).toBe("Counter");
    const snapshot = text(await call("browser", { action: "snapshot", targetId: opened.targetId }));
    const ref = /button "Press" \[ref=(e\d+)\]/.exec(snapshot)![1];
    await call("browser", { action: "act", request: { kind: "click", targetId: opened.targetId, ref } });
    expect(text(await call("browser", { action: "snapshot", targetId: opened.targetId }))).toContain(
      'button "clicked"',
    );
    const shot = (await call("browser", { action: "screenshot", targetId: opened.targetId })) as {
      content: Array<{ type: string; mimeType?: string }>;
    };
    expect(shot.content.find((c) => c.type === "image")?.mimeType).toBe("image/png");
  }, 90_000);

  // Node 22.1 and later: the CLI turns on Node's compile cache, which covers playwright-core too
  it.runIf("enableCompileCache" in Module)(
    "keeps the compiled code of what a browser launch loaded in Node's compile cache",
    async () => {
      // with no NODE_COMPILE_CACHE (which would turn the cache on by itself) Node keeps it under
      // the temp directory
      const temp = mkdtempSync(path.join(tmpdir(), "cli-node-compile-cache-"));
      const nodeCache = path.join(temp, "node-compile-cache");
      const { client, call } = await serve(["--profile", "full", "--allow-private-network"], {
        TMPDIR: temp,
      });
      expect(text(await call("browser", { action: "navigate", targetUrl: url }))).toContain("Page: Counter");
      await client.close();
      // Node writes its entries as the process exits: one directory per Node build, a file per module
      const files = () => {
        try {
          return readdirSync(nodeCache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
            .length;
        } catch {
          return 0;
        }
      };
      await vi.waitFor(() => expect(files()).toBeGreaterThan(10), { timeout: 20_000, interval: 100 });
    },
    120_000,
  );

  // Node 22.1 and later have their own compile cache, and the ui section's steps aside there
  it.skipIf("enableCompileCache" in Module)(
    "keeps playwright-core's code cache, and the next serve launches from it unchanged",
    async () => {
      const cacheHome = mkdtempSync(path.join(tmpdir(), "cli-code-cache-"));
      const cacheDir = path.join(cacheHome, "clawtools", "code-cache");
      const entries = () => {
        try {
          return readdirSync(cacheDir)
            .sort()
            .map((name) => ({ name, mtimeMs: statSync(path.join(cacheDir, name)).mtimeMs }));
        } catch {
          return [];
        }
      };
      const launch = async () => {
        const { client, call } = await serve(["--profile", "full", "--allow-private-network"], {
          XDG_CACHE_HOME: cacheHome,
        });
        const navigated = text(await call("browser", { action: "navigate", targetUrl: url }));
        expect(navigated).toContain("Page: Counter");
        await client.close();
      };
      await launch();
      // written when the browser stops, with the serve
      await vi.waitFor(() => expect(entries().length).toBeGreaterThan(0), { timeout: 20_000, interval: 100 });
      const written = entries();
      expect(written.every((e) => /^[0-9a-f]{16}-[0-9a-f]{24}$/.test(e.name))).toBe(true);
      // V8 takes every entry: none is compiled over and written again, none is added
      await launch();
      await new Promise((r) => setTimeout(r, 1_000));
      expect(entries()).toEqual(written);
      // and one V8 rejects (damaged here) is written again by the serve that compiled over it
      const damaged = path.join(cacheDir, written[0]!.name);
      const garbage = Buffer.alloc(4096, 7);
      writeFileSync(damaged, garbage);
      await launch();
      await vi.waitFor(() => expect(readFileSync(damaged).equals(garbage)).toBe(false), {
        timeout: 20_000,
        interval: 100,
      });
      expect(entries().map((e) => e.name)).toEqual(written.map((e) => e.name));
    },
    120_000,
  );
});

describe("serve --profile full: a canvas snapshot right after a present whose page came late", () => {
  // before its capture was bounded, Chromium left a fresh browser's first capture here
  // unanswered in about one serve in three (2026-12-07), and the call hung until the host's
  // request timeout: several fresh serves, each must answer within the call's own bound
  it("answers an image in each of three fresh serves, within its own bound", async () => {
    const held: Array<() => void> = [];
    let arrived: () => void = () => {};
    // only the page is held (a favicon is refused at once, so it never takes the page's turn)
    const late = createServer((req, res) => {
      if (req.url !== "/late") return void res.writeHead(404).end();
      held.push(() =>
        res.writeHead(200, { "content-type": "text/html" }).end("<title>Late</title><h1>late</h1>"),
      );
      arrived();
    });
    await new Promise<void>((r) => late.listen(0, "127.0.0.1", r));
    const page = `http://127.0.0.1:${(late.address() as AddressInfo).port}/late`;
    const config = path.join(mkdtempSync(path.join(tmpdir(), "cli-canvas-")), "config.json");
    writeFileSync(config, JSON.stringify({ ui: { browser: { actionTimeoutMs: 1_000 } } }));
    try {
      for (let round = 0; round < 3; round++) {
        const { client, call } = await serve([
          "--profile",
          "full",
          "--allow-private-network",
          "--config",
          config,
        ]);
        const requested = new Promise<void>((resolve) => {
          arrived = resolve;
        });
        const presented = call("canvas", { action: "present", url: page });
        await requested;
        // the present gives up on the held page and stops its load; the answer is let go as
        // the snapshot starts, and lands nowhere
        expect(text(await presented)).toContain(
          `The page at ${page} did not finish loading within 1000 ms, so loading was stopped`,
        );
        const shot = client.callTool({ name: "canvas", arguments: { action: "snapshot" } }, undefined, {
          timeout: 30_000,
        }) as Promise<{ content: Array<{ type: string; mimeType?: string }>; isError?: boolean }>;
        for (const release of held.splice(0)) release();
        const result = await shot;
        expect(result.isError).toBeFalsy();
        expect(result.content.find((c) => c.type === "image")?.mimeType).toBe("image/png");
        await client.close();
      }
    } finally {
      for (const release of held) release();
      await new Promise((r) => late.close(r));
    }
  }, 180_000);
});

describe("serve --model with a loopback model server", () => {
  let model: ReturnType<typeof createServer>;
  let baseUrl: string;
  beforeAll(async () => {
    // OpenAI's streamed chat completions: a task naming a command runs it through exec, a tool result is reported
    model = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        messages: Array<{ role: string; content: unknown }>;
      };
      const last = body.messages.at(-1)!;
      const content = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
      const run = /RUN<(.+?)>/.exec(content);
      const delta =
        last.role === "user" && run
          ? {
              role: "assistant",
              tool_calls: [
                {
                  index: 0,
                  id: "call_1",
                  type: "function",
                  function: { name: "exec", arguments: JSON.stringify({ command: run[1] }) },
                },
              ],
            }
          : {
              role: "assistant",
              content: `Child says: ${content.replace(/[^a-z0-9 -]/gi, "").slice(0, 60)}`,
            };
      const finish = "tool_calls" in delta ? "tool_calls" : "stop";
      const chunk = (d: object, f: string | null) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "scripted", choices: [{ index: 0, delta: d, finish_reason: f }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${chunk(delta, null)}${chunk({}, finish)}data: [DONE]\n\n`);
    });
    await new Promise<void>((r) => model.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => model?.close());

  it("serves every sessions tool, and a spawn runs to completion with its announce in the caller's session", async () => {
    const { client, call } = await serve(["--profile", "coding", "--model", "openai/scripted"], {
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: "sk-loopback",
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "sessions_list",
        "sessions_history",
        "sessions_send",
        "sessions_spawn",
        "subagents",
        "session_status",
      ]),
    );
    const spawned = json(await call("sessions_spawn", { task: "RUN<echo from-the-child>", label: "worker" }));
    expect(spawned.status).toBe("accepted");
    let event = "";
    // up to a minute: the child's turn runs a process (seconds on a loaded CI machine)
    for (let i = 0; i < 600 && !event; i++) {
      const history = json(await call("sessions_history", { sessionKey: "main" }));
      event =
        history.messages
          .map((m: { content: unknown }) => String(m.content))
          .find((c: string) => c.includes("[Internal task completion event]")) ?? "";
      if (!event) await new Promise((r) => setTimeout(r, 100));
    }
    expect(event).toContain("status: completed successfully");
    expect(event).toContain("from-the-child");
    // the announce lands in the caller's session just before the run records it delivered: polled
    await vi.waitFor(
      async () =>
        expect(json(await call("subagents", {})).recent[0]).toMatchObject({
          label: "worker",
          status: "done",
          announce: "delivered",
        }),
      { timeout: 30_000, interval: 100 },
    );
  });

  it("a host gets a spawned child's answer by calling exactly what the spawn result tells it to", async () => {
    const { client, call } = await serve(["--profile", "coding", "--model", "openai/scripted"], {
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: "sk-loopback",
    });
    const served = (await client.listTools()).tools.map((t) => t.name);
    const spawned = json(await call("sessions_spawn", { task: "say hello", label: "greeter" }));
    expect(spawned.status).toBe("accepted");
    // no push reaches an MCP host: the note must not tell it to wait for one
    expect(spawned.note).not.toContain("push-based");
    // as a host model would: the tool the note names, with the arguments it gives
    const named = /call (\w+) with (\{[^}]*\})/.exec(spawned.note);
    expect(named).not.toBeNull();
    const [, tool, args] = named!;
    expect(served).toContain(tool);
    const answer = json(await call(tool!, JSON.parse(args!)));
    expect(answer).toMatchObject({
      status: "completed",
      runId: spawned.runId,
      childSessionKey: spawned.childSessionKey,
      label: "greeter",
    });
    // the loopback model's answer to the child's task
    expect(answer.reply).toMatch(/^Child says: .*Subagent Context You are running as a subagent/);
  });
});

describe("serve with an ACP harness in the config file", () => {
  // runner-acp's test agent: a real process speaking ACP over stdio, answering from the prompt
  const agent = path.resolve(bin, "../../../../adapters/runner-acp/test/fixtures/acp-agent.mjs");

  it("runs a runtime=acp spawn in the harness and announces it in the caller's session; no model needed", async () => {
    const configDir = mkdtempSync(path.join(tmpdir(), "cli-acp-"));
    const config = path.join(configDir, "clawtools.json");
    writeFileSync(config, JSON.stringify({ acp: { command: process.execPath, args: [agent] } }));
    const { call } = await serve(["--profile", "full", "--owner", "--config", config], {
      ACP_FIXTURE_DIR: path.join(configDir, "agent"),
    });
    const spawned = json(
      await call("sessions_spawn", { task: "chunks From the |harness.", runtime: "acp", label: "acp" }),
    );
    expect(spawned).toMatchObject({ status: "accepted" });
    expect(spawned.childSessionKey).toMatch(/^agent:cli:acp:/);
    let event: string | undefined;
    // up to 30 s: the harness is a process start (seconds on a loaded CI machine)
    for (let i = 0; i < 600 && !event; i++) {
      const history = json(await call("sessions_history", { sessionKey: "main" }));
      event = (history.messages as Array<{ content: unknown }>)
        .map((m) => String(m.content))
        .find((c) => c.includes("[Internal task completion event]"));
      if (!event) await new Promise((r) => setTimeout(r, 50));
    }
    expect(event).toContain(`session_key: ${spawned.childSessionKey}`);
    expect(event).toContain(
      "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\nFrom the harness.\n<<<END_UNTRUSTED_CHILD_RESULT>>>",
    );
    // without a model, runtime=subagent children have no loop to run on
    const plain = json(await call("sessions_spawn", { task: "plain" }));
    expect(plain.status).toBe("error");
    expect(plain.error).toContain("no agent runner for session agent:cli:subagent:");
  });

  it("refuses a malformed acp entry before serving", async () => {
    const configDir = mkdtempSync(path.join(tmpdir(), "cli-acp-"));
    const config = path.join(configDir, "clawtools.json");
    writeFileSync(config, JSON.stringify({ acp: { command: "" } }));
    const refused = spawnSync(process.execPath, [bin, "serve", "--config", config], { encoding: "utf8" });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `--config ${config}: acp must be {"command": "<program>", "args": ["<arg>", …]} (an ACP agent started over stdio)`,
    );
  });
});

describe("serve --nodes local", () => {
  it("serves nodes (owner) with this machine's real status", async () => {
    const { client, call } = await serve(["--profile", "full", "--owner", "--nodes", "local"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("nodes");
    const status = json(await call("nodes", { action: "device_status" }));
    expect(status.loadAverage).toHaveLength(3);
  });
});
