import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findOpenclaw, type RealGateway, startRealGateway } from "@clawtools/gateway/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseCommonOptions } from "./options.js";
import { buildToolset, type CliToolset } from "./toolset.js";

const openclaw = findOpenclaw();
const skipReason = "skip" in openclaw ? openclaw.skip : undefined;
if (skipReason) console.warn(`[serve --gateway cron tests skipped] ${skipReason}`);
const BOOT_TIMEOUT_MS = 180_000;

const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? "").join("");

describe.skipIf(skipReason !== undefined)(
  "serve --gateway: the cron tool through a real OpenClaw Gateway",
  () => {
    let gateway: RealGateway;
    let set: CliToolset;
    let stateDir: string;
    let startLine = "";

    beforeAll(async () => {
      if ("skip" in openclaw) return;
      gateway = await startRealGateway(openclaw, { readyTimeoutMs: BOOT_TIMEOUT_MS - 10_000 });
      const workspace = mkdtempSync(path.join(tmpdir(), "cli-gateway-cron-"));
      stateDir = path.join(workspace, ".state");
      const options = parseCommonOptions(
        [
          "--workspace",
          workspace,
          "--state-dir",
          stateDir,
          "--profile",
          "full",
          "--owner",
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
      await gateway?.stop();
    }, 60_000);

    const tool = (name: string) => {
      const found = set.tools.find((t) => t.name === name);
      if (!found) throw new Error(`no ${name} tool`);
      return found;
    };
    const call = async (name: string, args: Record<string, unknown>) =>
      JSON.parse(text(await tool(name).execute("c", args)));

    it("says at start that nodes and automation go through the Gateway", () => {
      expect(startLine).toMatch(/through the Gateway: nodes, automation, messaging; embedded: .*\bfs\b/);
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
  },
);
