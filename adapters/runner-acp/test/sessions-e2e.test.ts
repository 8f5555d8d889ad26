import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentToolResult, type AnyAgentTool, createToolset } from "@clawtools/core";
import { BEGIN_CHILD, createSessionsPlugin } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type AcpRunner, createAcpRunner, withAcpSessions } from "../src/index.js";
import { gone, isAlive } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/acp-agent.mjs", import.meta.url));
let dir: string;
let acp: AcpRunner | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-acp-e2e-"));
});
afterEach(async () => {
  await acp?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const json = (r: AgentToolResult<unknown>) =>
  JSON.parse(r.content.map((c) => (c.type === "text" ? c.text : "")).join(""));

function setup(options: { routed?: boolean; sandboxed?: boolean } = {}) {
  const workspace = path.join(dir, "workspace");
  const stateDir = path.join(dir, "state");
  fs.mkdirSync(workspace);
  const sessions = createSessionsPlugin({
    runner: ({ store }) => {
      acp = createAcpRunner({
        command: process.execPath,
        args: [FIXTURE],
        cwd: workspace,
        env: { ACP_FIXTURE_DIR: path.join(dir, "agent") },
        store,
      });
      // routed: sub-agents on the app's loop (here a scripted one), runtime=acp on the harness
      if (!options.routed) return acp;
      return withAcpSessions(
        createScriptedRunner({ store, script: (t) => `loop: ${t.message.length}` }),
        acp,
      );
    },
  });
  const ctx = {
    workspaceDir: workspace,
    stateDir,
    agentId: "main",
    sessionKey: "main",
    ...(options.sandboxed ? { sandboxed: true } : {}),
  };
  const set = createToolset({
    plugins: [sessions],
    context: ctx,
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  const call = async (name: string, args: Record<string, unknown>) =>
    json(
      (await (set.tools.find((t) => t.name === name) as AnyAgentTool).execute(
        "c",
        args,
      )) as AgentToolResult<any>,
    );
  return { call, service: sessions.serviceFor(ctx), dispose: () => set.dispose() };
}

it("sessions_spawn runs the child in the ACP agent: its streamed reply is announced to the parent", async () => {
  const { call, service, dispose } = setup();
  const spawned = await call("sessions_spawn", { task: "chunks Child |done.", label: "acp-child" });
  expect(spawned).toMatchObject({ status: "accepted", mode: "run" });
  await service.idle();
  const parent = await call("sessions_history", { sessionKey: "main" });
  const event = parent.messages.find(
    (m: { content: unknown }) =>
      typeof m.content === "string" && m.content.includes("[Internal task completion event]"),
  );
  expect(event.content).toContain(`session_key: ${spawned.childSessionKey}`);
  expect(event.content).toContain("status: completed successfully");
  expect(event.content).toContain(`${BEGIN_CHILD}\nChild done.`);
  const child = await call("sessions_history", { sessionKey: spawned.childSessionKey });
  expect(child.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  expect((await call("subagents", {})).recent[0]).toMatchObject({ label: "acp-child", status: "done" });
  await dispose();
});

it("subagents kill stops the ACP agent process and what it started", async () => {
  const { call, service, dispose } = setup();
  const spawned = await call("sessions_spawn", { task: "hang", label: "stuck" });
  const pidFile = path.join(dir, "agent", "grandchild.pid");
  while (!fs.existsSync(pidFile) || !fs.readFileSync(pidFile, "utf8"))
    await new Promise((r) => setTimeout(r, 10));
  const grandchild = Number(fs.readFileSync(pidFile, "utf8"));
  const agentPid = acp!.info(spawned.runId)!.pid!;
  const killed = await call("subagents", { action: "kill", target: "stuck" });
  expect(killed).toMatchObject({ status: "ok" });
  await service.idle();
  expect(isAlive(agentPid)).toBe(false);
  expect(await gone(grandchild)).toBe(true);
  expect((await call("subagents", {})).recent[0]).toMatchObject({ label: "stuck", status: "killed" });
  await dispose();
});

it("runtime=acp goes to the ACP harness and runtime=subagent to the app's loop, one runner routing both", async () => {
  const { call, service, dispose } = setup({ routed: true });
  const viaAcp = await call("sessions_spawn", { task: "chunks From |harness.", runtime: "acp", label: "h" });
  const viaLoop = await call("sessions_spawn", { task: "plain", label: "l" });
  expect(viaAcp).toMatchObject({ status: "accepted" });
  expect(viaAcp.childSessionKey).toMatch(/^agent:main:acp:/);
  expect(viaLoop.childSessionKey).toMatch(/^agent:main:subagent:/);
  await service.idle();
  const parent = await call("sessions_history", { sessionKey: "main" });
  const events = parent.messages
    .map((m: { content: unknown }) => (typeof m.content === "string" ? m.content : ""))
    .filter((c: string) => c.includes("[Internal task completion event]"));
  expect(events.find((c: string) => c.includes(viaAcp.childSessionKey))).toContain(
    `${BEGIN_CHILD}\nFrom harness.`,
  );
  expect(events.find((c: string) => c.includes(viaLoop.childSessionKey))).toContain(`${BEGIN_CHILD}\nloop: `);
  await dispose();
});

it("runtime=acp is refused with a reason: without an ACP runner, from a sandboxed session, with sandbox=require or streamTo, and a cwd outside the workspace", async () => {
  const plain = setup({ routed: false });
  // a bare AcpRunner does not declare the acp runtime: only withAcpSessions routes it
  expect(await plain.call("sessions_spawn", { task: "x", runtime: "acp" })).toEqual({
    status: "error",
    error:
      "runtime=acp is not available here (no ACP harness configured: give the sessions section a runner with ACP sessions, e.g. withAcpSessions from @clawtools/runner-acp); use runtime=subagent.",
  });
  await plain.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  const sandboxed = setup({ routed: true, sandboxed: true });
  expect(await sandboxed.call("sessions_spawn", { task: "x", runtime: "acp" })).toEqual({
    status: "forbidden",
    error:
      "runtime=acp cannot be spawned from a sandboxed session (ACP harnesses run on the host); use runtime=subagent.",
  });
  await sandboxed.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  const { call, dispose } = setup({ routed: true });
  expect(await call("sessions_spawn", { task: "x", runtime: "acp", sandbox: "require" })).toMatchObject({
    status: "forbidden",
    error:
      'sandbox="require" is not supported for runtime=acp (ACP harnesses run on the host); use runtime=subagent.',
  });
  expect(await call("sessions_spawn", { task: "x", runtime: "acp", streamTo: "parent" })).toMatchObject({
    status: "error",
    error: expect.stringContaining('streamTo="parent" is not supported'),
  });
  const escaped = await call("sessions_spawn", { task: "x", runtime: "acp", cwd: "../.." });
  expect(escaped.status).toBe("error");
  expect(escaped.error).toMatch(/escapes/i);
  expect((await call("subagents", {})).total).toBe(0);
  await dispose();
});
