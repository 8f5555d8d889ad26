import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FileSessionStore } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createAcpRunner, isAcpSessionKey, withAcpSessions } from "../src/index.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/acp-agent.mjs", import.meta.url));
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-acp-route-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it("runs agent:<id>:acp:<uuid> sessions on the ACP agent and the rest on the app's runner", async () => {
  const store = new FileSessionStore(path.join(dir, "state"));
  const acpKey = "agent:codex:acp:0b1c";
  const subKey = "agent:main:subagent:9f2e";
  await store.create({ key: acpKey, agentId: "codex" });
  await store.create({ key: subKey, agentId: "main" });
  const acp = createAcpRunner({
    command: process.execPath,
    args: [FIXTURE],
    cwd: dir,
    env: { ACP_FIXTURE_DIR: path.join(dir, "agent") },
    store,
  });
  const runner = withAcpSessions(createScriptedRunner({ store }), acp);
  expect([isAcpSessionKey(acpKey), isAcpSessionKey(subKey), isAcpSessionKey("agent:main:main")]).toEqual([
    true,
    false,
    false,
  ]);

  const a = await runner.start({ sessionKey: acpKey, message: "chunks from |ACP" });
  const b = await runner.start({ sessionKey: subKey, message: "task" });
  expect(await runner.wait(a.runId, 20_000)).toEqual({ status: "ok", reply: "from ACP" });
  expect(await runner.wait(b.runId, 20_000)).toEqual({ status: "ok", reply: "Done: task" });
  expect(acp.info(a.runId)?.acpSessionId).toMatch(/^sess_/);
  expect(acp.info(b.runId)).toBeUndefined();

  // a follow-up to the ACP child (sessions_send) continues its ACP session
  const c = await runner.start({ sessionKey: acpKey, message: "recall" });
  expect(await runner.wait(c.runId, 20_000)).toEqual({
    status: "ok",
    reply: "History: chunks from |ACP | recall",
  });

  const d = await runner.start({ sessionKey: acpKey, message: "hang" });
  expect(await runner.steer(d.runId, "more")).toBe(true);
  await runner.abort(d.runId);
  expect(await runner.wait(d.runId, 1000)).toEqual({ status: "aborted", error: "aborted" });
  expect(await runner.wait("nope", 0)).toEqual({ status: "error", error: "Unknown run: nope" });
  expect(await runner.steer("nope", "x")).toBe(false);

  const acpOnly = withAcpSessions(undefined, acp);
  await expect(acpOnly.start({ sessionKey: subKey, message: "x" })).rejects.toThrow(
    "no agent runner for session agent:main:subagent:9f2e (only ACP sessions can run)",
  );
});
