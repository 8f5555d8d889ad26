import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FileSessionStore } from "@clawtools/sessions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcpRunner, type AcpRunnerOptions, type AcpUpdateEvent, createAcpRunner } from "../src/index.js";
import { gone, isAlive } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/acp-agent.mjs", import.meta.url));

let dir: string;
let workspace: string;
let agentDir: string;
const runners: AcpRunner[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-acp-"));
  workspace = path.join(dir, "workspace");
  agentDir = path.join(dir, "agent");
  fs.mkdirSync(workspace);
  fs.mkdirSync(agentDir);
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function fixtureRunner(options: Partial<AcpRunnerOptions> = {}): AcpRunner {
  const runner = createAcpRunner({
    command: process.execPath,
    args: [FIXTURE],
    cwd: workspace,
    env: { ACP_FIXTURE_DIR: agentDir, ...options.env },
    ...Object.fromEntries(Object.entries(options).filter(([k]) => k !== "env")),
  });
  runners.push(runner);
  return runner;
}

async function newStore(): Promise<FileSessionStore> {
  const store = new FileSessionStore(path.join(dir, "state"));
  await store.create({ key: "agent:main:acp:test", agentId: "main" });
  return store;
}

async function run(runner: AcpRunner, message: string, extra: Record<string, unknown> = {}) {
  const { runId } = await runner.start({ sessionKey: "agent:main:acp:test", message, ...extra });
  const outcome = await runner.wait(runId, 20_000);
  return { runId, outcome, info: runner.info(runId)! };
}

const received = () =>
  fs
    .readFileSync(path.join(agentDir, "received.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { method?: string; params?: Record<string, unknown> });

async function until<T>(fn: () => T | undefined): Promise<T> {
  for (;;) {
    const value = fn();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("createAcpRunner against a real ACP agent process", () => {
  it("runs a prompt to completion: streamed chunks make the reply, the agent exits", async () => {
    const updates: AcpUpdateEvent[] = [];
    const store = await newStore();
    const runner = fixtureRunner({ store, onUpdate: (e) => updates.push(e) });
    const { runId, outcome, info } = await run(runner, "chunks Hel|lo, |world");
    expect(outcome).toEqual({ status: "ok", reply: "Hello, world" });
    expect(updates.map((u) => u.update)).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo, " } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "world" } },
    ]);
    expect(updates.every((u) => u.runId === runId && u.acpSessionId === info.acpSessionId)).toBe(true);
    expect(info.acpSessionId).toMatch(/^sess_/);
    expect(info.agentInfo).toEqual({ name: "fixture-agent", title: "Fixture agent", version: "1.0.0" });
    expect(info.stopReason).toBe("end_turn");
    expect(isAlive(info.pid!)).toBe(false);

    const [init, created, prompt] = received();
    expect(init).toMatchObject({
      method: "initialize",
      params: {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: "clawtools" },
      },
    });
    expect(created).toMatchObject({ method: "session/new", params: { cwd: workspace, mcpServers: [] } });
    expect(prompt).toMatchObject({
      method: "session/prompt",
      params: { sessionId: info.acpSessionId, prompt: [{ type: "text", text: "chunks Hel|lo, |world" }] },
    });

    const history = await store.history("agent:main:acp:test");
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ["user", "chunks Hel|lo, |world"],
      ["assistant", [{ type: "text", text: "Hello, world" }]],
    ]);
    expect(history[1]?.acp).toMatchObject({ sessionId: info.acpSessionId, stopReason: "end_turn" });
  });

  it("sends the sub-agent context as a first text block of the prompt; a run's own onUpdate sees its updates", async () => {
    const runner = fixtureRunner();
    const seen: string[] = [];
    const { outcome } = await run(runner, "chunks ok", {
      extraSystemPrompt: "You are a sub-agent.",
      onUpdate: (e: AcpUpdateEvent) => seen.push(String(e.update.sessionUpdate)),
    });
    expect(seen).toEqual(["agent_message_chunk"]);
    expect(outcome).toEqual({ status: "ok", reply: "ok" });
    expect(received().find((m) => m.method === "session/prompt")?.params?.prompt).toEqual([
      { type: "text", text: "You are a sub-agent." },
      { type: "text", text: "chunks ok" },
    ]);
  });

  it("records the agent's tool calls, merged with their updates", async () => {
    const { outcome, info } = await run(fixtureRunner(), "tool");
    expect(outcome).toEqual({ status: "ok", reply: "The notes have 3 lines." });
    expect(info.toolCalls).toEqual([
      {
        toolCallId: "call_1",
        title: "Reading notes.txt",
        kind: "read",
        status: "completed",
        rawInput: { path: "notes.txt" },
        rawOutput: { lines: 3 },
      },
    ]);
  });

  it("abort sends session/cancel, the turn ends cancelled, and the agent and its children are gone", async () => {
    const runner = fixtureRunner();
    const { runId } = await runner.start({ sessionKey: "agent:main:acp:test", message: "hang" });
    const grandchild = await until(() => {
      const file = path.join(agentDir, "grandchild.pid");
      return fs.existsSync(file) && fs.readFileSync(file, "utf8")
        ? Number(fs.readFileSync(file, "utf8"))
        : undefined;
    });
    const pid = runner.info(runId)!.pid!;
    expect(isAlive(pid)).toBe(true);
    expect(isAlive(grandchild)).toBe(true);
    await runner.abort(runId);
    expect(await runner.wait(runId, 1000)).toEqual({ status: "aborted", error: "aborted" });
    expect(runner.info(runId)!.stopReason).toBe("cancelled");
    expect(received().filter((m) => m.method === "session/cancel")).toEqual([
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: runner.info(runId)!.acpSessionId } },
    ]);
    expect(isAlive(pid)).toBe(false);
    expect(await gone(grandchild)).toBe(true);
    expect(await runner.steer(runId, "too late")).toBe(false);
  });

  it("kills an agent that ignores session/cancel once the grace period is over", async () => {
    const runner = fixtureRunner({ cancelGraceMs: 100, killGraceMs: 100 });
    const { runId } = await runner.start({
      sessionKey: "agent:main:acp:test",
      message: "hang-ignore-cancel",
    });
    const grandchild = await until(() => {
      const file = path.join(agentDir, "grandchild.pid");
      return fs.existsSync(file) && fs.readFileSync(file, "utf8")
        ? Number(fs.readFileSync(file, "utf8"))
        : undefined;
    });
    await runner.abort(runId);
    expect(await runner.wait(runId, 1000)).toEqual({ status: "aborted", error: "aborted" });
    expect(isAlive(runner.info(runId)!.pid!)).toBe(false);
    expect(await gone(grandchild)).toBe(true);
  });

  it("a run's own time limit cancels it: status timeout", async () => {
    const { outcome, info } = await run(fixtureRunner(), "hang", { timeoutMs: 200 });
    // the limit may fall before or after the agent's first chunk ("working", then kept as the reply)
    expect(outcome).toMatchObject({ status: "timeout", error: "timed out" });
    expect([undefined, "working"]).toContain(outcome.reply);
    expect(isAlive(info.pid!)).toBe(false);
  });

  it("wait answers running while the turn goes on", async () => {
    const runner = fixtureRunner();
    const { runId } = await runner.start({ sessionKey: "k", message: "hang" });
    expect(await runner.wait(runId, 0)).toEqual({ status: "running" });
    await runner.abort(runId);
    expect(await runner.wait("nope", 0)).toEqual({ status: "error", error: "Unknown run: nope" });
  });

  it("steered messages become the next turn of the same session", async () => {
    const runner = fixtureRunner();
    const gate = path.join(dir, "gate");
    const { runId } = await runner.start({ sessionKey: "k", message: `wait-file ${gate}` });
    expect(await runner.steer(runId, "and then this")).toBe(true);
    fs.writeFileSync(gate, "");
    expect(await runner.wait(runId, 20_000)).toEqual({ status: "ok", reply: "Echo: and then this" });
    const prompts = received().filter((m) => m.method === "session/prompt");
    expect(prompts.map((m) => m.params?.prompt)).toEqual([
      [{ type: "text", text: `wait-file ${gate}` }],
      [{ type: "text", text: "and then this" }],
    ]);
  });

  describe("resume", () => {
    it("resumeSessionId loads the ACP session: history is replayed, not repeated in the reply", async () => {
      const first = await run(fixtureRunner(), "remember apples");
      expect(first.outcome).toEqual({ status: "ok", reply: "Echo: remember apples" });
      const id = first.info.acpSessionId!;

      const updates: AcpUpdateEvent[] = [];
      const second = await run(fixtureRunner({ onUpdate: (e) => updates.push(e) }), "recall", {
        resumeSessionId: id,
      });
      expect(second.outcome).toEqual({ status: "ok", reply: "History: remember apples | recall" });
      expect(second.info).toMatchObject({ acpSessionId: id, resumed: true });
      expect(received().find((m) => m.method === "session/load")).toMatchObject({
        params: { sessionId: id, cwd: workspace, mcpServers: [] },
      });
      // the replayed history is not streamed on as new output
      expect(updates.map((u) => u.update.content)).toEqual([
        { type: "text", text: "History: remember apples | recall" },
      ]);
    });

    it("a session key's next run continues its ACP session, from memory or from the store's transcript", async () => {
      const store = await newStore();
      const runner = fixtureRunner({ store });
      const first = await run(runner, "remember pears");
      const second = await run(runner, "recall");
      expect(second.outcome).toEqual({ status: "ok", reply: "History: remember pears | recall" });
      expect(second.info.acpSessionId).toBe(first.info.acpSessionId);

      // a new runner (a restarted app) finds the session in the transcript
      const restarted = fixtureRunner({ store });
      expect(await restarted.acpSessionIdFor("agent:main:acp:test")).toBe(first.info.acpSessionId);
      const third = await run(restarted, "recall");
      expect(third.outcome).toEqual({ status: "ok", reply: "History: remember pears | recall | recall" });
    });

    it("an unknown session id fails clearly, with no silent new session", async () => {
      const { outcome } = await run(fixtureRunner(), "recall", { resumeSessionId: "sess_missing" });
      expect(outcome).toEqual({
        status: "error",
        error: "the ACP agent could not load session sess_missing: Session not found: sess_missing",
      });
      expect(received().some((m) => m.method === "session/new" || m.method === "session/prompt")).toBe(false);
    });

    it("an agent that can neither load nor resume sessions cannot resume one", async () => {
      const runner = fixtureRunner({ env: { ACP_FIXTURE_NO_LOAD: "1" } });
      const { outcome } = await run(runner, "recall", { resumeSessionId: "sess_abc" });
      expect(outcome).toEqual({
        status: "error",
        error:
          "the ACP agent can neither load nor resume sessions (no loadSession or sessionCapabilities.resume), so session sess_abc cannot be resumed",
      });
    });

    it("an agent with sessionCapabilities.resume (and no loadSession) is resumed with session/resume", async () => {
      const env = { ACP_FIXTURE_NO_LOAD: "1", ACP_FIXTURE_RESUME: "1" };
      const first = await run(fixtureRunner({ env }), "remember plums");
      const id = first.info.acpSessionId!;
      const second = await run(fixtureRunner({ env }), "recall", { resumeSessionId: id });
      expect(second.outcome).toEqual({ status: "ok", reply: "History: remember plums | recall" });
      expect(second.info.resumed).toBe(true);
      expect(received().find((m) => m.method === "session/resume")).toMatchObject({
        params: { sessionId: id, cwd: workspace, mcpServers: [] },
      });
      expect(received().some((m) => m.method === "session/load")).toBe(false);
    });
  });

  describe("permission requests", () => {
    it("are denied by default: the offered reject_once is selected", async () => {
      const { outcome, info } = await run(fixtureRunner(), "permission");
      expect(outcome).toEqual({ status: "ok", reply: "Not allowed (reject)." });
      expect(info.permissions).toEqual([
        {
          toolCallId: "call_rm",
          title: "Run rm -rf build",
          outcome: { outcome: "selected", optionId: "reject" },
        },
      ]);
      expect(info.toolCalls[0]).toMatchObject({ toolCallId: "call_rm", status: "failed" });
    });

    it("allow selects allow_once, never allow_always", async () => {
      const { outcome, info } = await run(fixtureRunner({ permissions: "allow" }), "permission");
      expect(outcome).toEqual({ status: "ok", reply: "I removed the build directory." });
      expect(info.permissions[0]?.outcome).toEqual({ outcome: "selected", optionId: "allow" });
    });

    it("a policy function decides; an option the agent did not offer becomes cancelled", async () => {
      const seen: string[] = [];
      const { outcome } = await run(
        fixtureRunner({
          permissions: (req) => {
            seen.push(`${req.toolCall.title}: ${req.options.map((o) => o.kind).join(",")}`);
            return { optionId: "made-up" };
          },
        }),
        "permission",
      );
      expect(seen).toEqual(["Run rm -rf build: allow_once,allow_always,reject_once"]);
      expect(outcome).toEqual({ status: "ok", reply: "Not allowed (cancelled)." });
    });
  });

  describe("failures end the run with a clear error, never a hang", () => {
    it("an agent that crashes mid-turn", async () => {
      const { outcome, info } = await run(fixtureRunner(), "crash");
      expect(outcome).toEqual({
        status: "error",
        error:
          "the ACP agent exited with code 3 before the run ended; its stderr ends with: boom: the fixture agent crashed",
      });
      expect(isAlive(info.pid!)).toBe(false);
    });

    it("an agent that writes a line that is not JSON-RPC", async () => {
      const { outcome, info } = await run(fixtureRunner(), "malformed");
      expect(outcome).toEqual({
        status: "error",
        error: 'the ACP agent wrote a line that is not JSON-RPC (not JSON): "this is not json"',
      });
      expect(isAlive(info.pid!)).toBe(false);
    });

    it("an agent that never answers initialize", async () => {
      const runner = createAcpRunner({
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        cwd: workspace,
        startupTimeoutMs: 200,
      });
      runners.push(runner);
      const { outcome, info } = await run(runner, "hello");
      expect(outcome).toEqual({
        status: "error",
        error: "the ACP agent did not answer initialize within 200 ms",
      });
      expect(isAlive(info.pid!)).toBe(false);
    });

    it("abort while the agent has not answered initialize kills it at once", async () => {
      const runner = createAcpRunner({
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        cwd: workspace,
      });
      runners.push(runner);
      const { runId } = await runner.start({ sessionKey: "k", message: "hello" });
      const pid = await until(() => runner.info(runId)?.pid);
      await runner.abort(runId);
      expect(await runner.wait(runId, 1000)).toEqual({ status: "aborted", error: "aborted" });
      expect(isAlive(pid)).toBe(false);
    });

    it("a command that does not exist", async () => {
      const runner = createAcpRunner({ command: path.join(dir, "no-such-agent"), cwd: workspace });
      runners.push(runner);
      const { outcome } = await run(runner, "hello");
      expect(outcome).toEqual({
        status: "error",
        error: `the ACP agent could not be started (${path.join(dir, "no-such-agent")}): spawn ${path.join(dir, "no-such-agent")} ENOENT`,
      });
    });

    it("an agent that speaks another protocol version", async () => {
      const { outcome } = await run(fixtureRunner({ env: { ACP_FIXTURE_VERSION: "2" } }), "chunks hi");
      expect(outcome).toEqual({
        status: "error",
        error: "the ACP agent speaks protocol version 2; this client speaks 1",
      });
      expect(received().map((m) => m.method)).toEqual(["initialize"]);
    });

    it("a cwd that is not a directory, before anything is started", async () => {
      const missing = path.join(dir, "missing");
      const { outcome, info } = await run(fixtureRunner(), "chunks hi", { cwd: missing });
      expect(outcome).toEqual({
        status: "error",
        error: `the ACP session's cwd is not a directory: ${missing}`,
      });
      expect(info.pid).toBeUndefined();
    });

    it("a refusal", async () => {
      const { outcome } = await run(fixtureRunner(), "refuse");
      expect(outcome).toEqual({
        status: "error",
        error: 'the ACP agent ended the turn with stopReason "refusal"',
      });
    });
  });

  describe("client-side methods", () => {
    it("fs methods are not advertised nor answered unless enabled", async () => {
      expect((await run(fixtureRunner(), "read notes.txt")).outcome).toEqual({
        status: "ok",
        reply: "client has no readTextFile",
      });
      expect((await run(fixtureRunner(), "call fs/write_text_file")).outcome).toEqual({
        status: "ok",
        reply: "error -32601: fs/write_text_file is not enabled: this client did not advertise it",
      });
      expect(
        (await run(fixtureRunner({ fs: { read: true } }), "call fs/read_text_file sess_other")).outcome,
      ).toEqual({
        status: "ok",
        reply: "error -32602: Unknown session: sess_other",
      });
      expect((await run(fixtureRunner(), "call terminal/create")).outcome).toEqual({
        status: "ok",
        reply: "error -32601: Method not found: terminal/create",
      });
    });

    it("fs/read_text_file and fs/write_text_file stay inside the workspace", async () => {
      fs.writeFileSync(path.join(workspace, "notes.txt"), "one\ntwo");
      fs.writeFileSync(path.join(dir, "secret.txt"), "secret");
      const runner = fixtureRunner({ fs: { read: true, write: true } });
      expect((await run(runner, `read ${path.join(workspace, "notes.txt")}`)).outcome).toEqual({
        status: "ok",
        reply: "content: one\ntwo",
      });
      expect((await run(runner, `read ${path.join(dir, "secret.txt")}`)).outcome).toEqual({
        status: "ok",
        reply: `error -32603: Path escapes sandbox root (${workspace}): ${path.join(dir, "secret.txt")}`,
      });
      fs.symlinkSync(path.join(dir, "secret.txt"), path.join(workspace, "link.txt"));
      expect((await run(runner, "read link.txt")).outcome).toEqual({
        status: "ok",
        reply: `error -32603: Symlink escapes sandbox root (${workspace}): link.txt -> ${path.join(dir, "secret.txt")}`,
      });
      expect((await run(runner, `write ${path.join(workspace, "out/new.txt")} fresh text`)).outcome).toEqual({
        status: "ok",
        reply: `wrote ${path.join(workspace, "out/new.txt")}`,
      });
      expect(fs.readFileSync(path.join(workspace, "out/new.txt"), "utf8")).toBe("fresh text");
      expect((await run(runner, "write ../escaped.txt nope")).outcome).toEqual({
        status: "ok",
        reply: `error -32603: Path escapes sandbox root (${workspace}): ../escaped.txt`,
      });
      expect(fs.existsSync(path.join(dir, "escaped.txt"))).toBe(false);
      expect(received()[0]?.params?.clientCapabilities).toEqual({
        fs: { readTextFile: true, writeTextFile: true },
        terminal: false,
      });
    });
  });

  describe("environment and model", () => {
    it("the agent inherits a sanitised environment", async () => {
      const runner = fixtureRunner({
        baseEnv: { PATH: process.env.PATH, BASH_ENV: "/tmp/evil.sh", KEEP_ME: "yes" },
      });
      expect((await run(runner, "env BASH_ENV")).outcome).toEqual({
        status: "ok",
        reply: "BASH_ENV=(unset)",
      });
      expect((await run(runner, "env KEEP_ME")).outcome).toEqual({ status: "ok", reply: "KEEP_ME=yes" });
      expect((await run(runner, "env ACP_FIXTURE_DIR")).outcome).toEqual({
        status: "ok",
        reply: `ACP_FIXTURE_DIR=${agentDir}`,
      });
    });

    it("env given in code is checked as exec's is", () => {
      expect(() => createAcpRunner({ command: "agent", env: { LD_PRELOAD: "/tmp/x.so" } })).toThrow(
        "Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution.",
      );
      expect(() => createAcpRunner({ command: "agent", env: { PATH: "/tmp" } })).toThrow(
        "Security Violation: Custom 'PATH' variable is forbidden during host execution.",
      );
    });

    it("a run's model is applied through the agent's model config option when it offers the model", async () => {
      expect((await run(fixtureRunner(), "model", { model: "acme/fixture-large" })).outcome).toEqual({
        status: "ok",
        reply: "model: fixture-large",
      });
      expect(received().find((m) => m.method === "session/set_config_option")?.params).toMatchObject({
        configId: "model",
        value: "fixture-large",
      });
      // the older `models` field and session/set_model
      const legacy = fixtureRunner({ env: { ACP_FIXTURE_LEGACY_MODELS: "1" } });
      expect((await run(legacy, "model", { model: "fixture-large" })).outcome).toEqual({
        status: "ok",
        reply: "model: fixture-large",
      });
      expect(received().find((m) => m.method === "session/set_model")?.params).toMatchObject({
        modelId: "fixture-large",
      });
      expect((await run(fixtureRunner(), "model", { model: "openai/gpt-5" })).outcome).toEqual({
        status: "error",
        error: 'the ACP agent does not offer model "openai/gpt-5" (available: fixture-small, fixture-large)',
      });
    });
  });
});
