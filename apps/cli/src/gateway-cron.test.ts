import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GatewayClient, GatewaySessionStore } from "@clawtools/gateway";
import {
  type FakeOpenAiModel,
  findOpenclaw,
  type SharedGateway,
  startFakeOpenAiModel,
} from "@clawtools/gateway/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shareGateway } from "../test/support/gateway.js";
import { parseCommonOptions } from "./options.js";
import { buildToolset, type CliToolset } from "./toolset.js";

const openclaw = findOpenclaw();
const skipReason = "skip" in openclaw ? openclaw.skip : undefined;
if (skipReason) console.warn(`[serve --gateway cron tests skipped] ${skipReason}`);
const BOOT_TIMEOUT_MS = 180_000;

const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? "").join("");

describe.skipIf(skipReason !== undefined)(
  "serve --gateway: cron, messaging and sessions through a real OpenClaw Gateway",
  () => {
    let model: FakeOpenAiModel;
    let gateway: SharedGateway;
    let operator: GatewayClient;
    let set: CliToolset;
    let stateDir: string;
    let startLine = "";

    beforeAll(async () => {
      if ("skip" in openclaw) return;
      // the Gateway's model is a loopback OpenAI-compatible server (sessions_send runs a turn)
      model = await startFakeOpenAiModel();
      gateway = await shareGateway({ models: { fake: model } });
      operator = new GatewayClient({ url: gateway.url, token: gateway.token, reconnect: false });
      const workspace = mkdtempSync(path.join(tmpdir(), "cli-gateway-cron-"));
      stateDir = path.join(workspace, ".state");
      // the Gateway's sessions are not this caller's spawns: let the sessions tools see them all
      const config = path.join(workspace, "clawtools.json");
      writeFileSync(config, JSON.stringify({ sessions: { visibility: "all" } }));
      const options = parseCommonOptions(
        [
          "--workspace",
          workspace,
          "--state-dir",
          stateDir,
          "--profile",
          "full",
          "--owner",
          "--config",
          config,
          "--gateway",
          gateway.url,
          "--gateway-token",
          gateway.token,
        ],
        "serve",
      );
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        startLine += String(chunk);
        return true;
      });
      try {
        set = await buildToolset(options, { profile: "full", store: true });
      } finally {
        stderr.mockRestore();
      }
    }, BOOT_TIMEOUT_MS + 60_000);

    afterAll(async () => {
      await set?.close();
      await operator?.close();
      await gateway?.stop();
      await model?.close();
    }, 60_000);

    const tool = (name: string) => {
      const found = set.tools.find((t) => t.name === name);
      if (!found) throw new Error(`no ${name} tool`);
      return found;
    };
    const call = async (name: string, args: Record<string, unknown>) =>
      JSON.parse(text(await tool(name).execute("c", args)));

    it("says at start that nodes, sessions, automation and messaging go through the Gateway", () => {
      const line = startLine.match(
        /through the Gateway: nodes, sessions, automation, messaging; embedded: ([^;\n]*); sessions act as the Gateway's agent main/,
      );
      expect(line, startLine).not.toBeNull();
      const embedded = (line?.[1] ?? "").split(", ");
      expect(embedded).toContain("fs");
      expect(embedded).not.toContain("sessions");
      expect(startLine).not.toContain(gateway.token);
    });

    it("cron add / list / remove reach the Gateway's jobs; nothing is stored here", async () => {
      const added = await call("cron", {
        action: "add",
        job: {
          name: "via-serve-gateway",
          schedule: { kind: "every", everyMs: 3_600_000 },
          sessionTarget: "main",
          wakeMode: "next-heartbeat",
          payload: { kind: "systemEvent", text: "hello" },
        },
      });
      expect(added).toMatchObject({ id: expect.any(String), name: "via-serve-gateway" });
      // OpenClaw 9.6's name for the same tool answers from the same Gateway
      const listed = await call("automations", { action: "list" });
      expect(listed.jobs.map((j: { id: string }) => j.id)).toContain(added.id);
      expect(await call("cron", { action: "remove", jobId: added.id })).toEqual({ ok: true, removed: true });
      const after = await call("cron", { action: "list" });
      expect(after.jobs.map((j: { id: string }) => j.id)).not.toContain(added.id);
      expect(existsSync(path.join(stateDir, "cron", "jobs.json"))).toBe(false);
    });

    it("the Gateway's refusal reaches the model as its own text", async () => {
      const refused = await tool("cron").execute("c", {
        action: "add",
        job: {
          name: "bad",
          schedule: { kind: "cron", expr: "61 * * * *" },
          sessionTarget: "main",
          wakeMode: "next-heartbeat",
          payload: { kind: "systemEvent", text: "x" },
        },
      });
      expect(refused.details).toMatchObject({
        status: "error",
        error: expect.stringMatching(
          /^gateway cron\.add: INVALID_REQUEST: invalid cron\.add params: .*Invalid value for minute: 61/,
        ),
      });
    });

    it("message send goes to the Gateway: with no channel there, its 'Channel is required' reaches the model", async () => {
      const result = await tool("message").execute("c", {
        action: "send",
        target: "+15550001",
        message: "hi",
      });
      expect(text(result)).toContain(
        "gateway send: INVALID_REQUEST: Error: Channel is required (no configured channels detected). Run openclaw channels add",
      );
    });

    it("the automation section's gateway tool (this app's configuration) stays", () => {
      expect(set.tools.map((t) => t.name)).toContain("gateway");
    });

    it("sessions_list / sessions_history / session_status read the Gateway's sessions; sessions_send runs a turn there", async () => {
      const key = "agent:main:via-serve";
      const store = new GatewaySessionStore({ client: operator });
      await store.create({ key, agentId: "main", label: "via serve" });
      await store.append(key, [
        { role: "assistant", content: "made outside clawtools", timestamp: Date.now() },
      ]);

      const listed = await call("sessions_list", {});
      expect(listed).toMatchObject({ sessions: expect.arrayContaining([expect.objectContaining({ key })]) });
      const history = await call("sessions_history", { sessionKey: key });
      expect(JSON.stringify(history.messages)).toContain("made outside clawtools");
      const status = text(await tool("session_status").execute("c", { sessionKey: key }));
      expect(status).toContain(key);

      const sent = await call("sessions_send", {
        sessionKey: key,
        message: "hello through serve",
        timeoutSeconds: 240,
      });
      expect(sent).toMatchObject({ status: "ok", reply: "pong from the loopback model", sessionKey: key });
      // the turn ran on the Gateway: its model was asked, and the reply is in the Gateway's transcript
      expect(model.problems).toEqual([]);
      expect(model.requests.length).toBeGreaterThan(0);
      expect(JSON.stringify(await store.history(key, { limit: 5 }))).toContain(
        "pong from the loopback model",
      );
      // nothing of it was written to an embedded session store
      expect(existsSync(path.join(stateDir, "agents", "main", "sessions", "sessions.json"))).toBe(false);
    }, 300_000);
  },
);
