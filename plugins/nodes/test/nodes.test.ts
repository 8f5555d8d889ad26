import { type ChildProcess, spawn } from "node:child_process";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalNodeHost, type LocalNotification } from "../src/local/local-host.js";
import { which } from "../src/local/screen.js";
import { createNodesPlugin, NO_NODE_HOST } from "../src/plugin.js";
import type { NodeHost } from "../src/host.js";

// nodes is owner-only and in no profile but full, as in OpenClaw
const nodesTool = (nodeHost: NodeHost) => {
  const set = createToolset({
    plugins: [createNodesPlugin({ nodeHost })],
    context: { workspaceDir: "/tmp" },
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  return set.tools.find((t) => t.name === "nodes")!;
};

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const body = (r: AgentToolResult<unknown>) => JSON.parse(text(r));
const error = (r: AgentToolResult<unknown>) => (r.isError ? String(body(r).error) : "");
const where = (action: string, node = "auto") => `agent=main node=${node} gateway=default action=${action}: `;

describe("nodes registration", () => {
  it("is left out, with the reason, when no node host is configured", () => {
    const set = createToolset({
      plugins: [createNodesPlugin()],
      context: { workspaceDir: "/tmp" },
      policy: { profile: "full" },
    });
    expect(set.tools.map((t) => t.name)).not.toContain("nodes");
    expect(set.diagnostics.some((d) => d.toolId === "nodes" && d.reason === NO_NODE_HOST)).toBe(true);
    const configured = createToolset({
      plugins: [createNodesPlugin()],
      context: { workspaceDir: "/tmp", config: { nodes: { host: "local" } } },
      policy: { profile: "full" },
      senderIsOwner: true,
    });
    expect(configured.tools.map((t) => t.name)).toContain("nodes");
  });
});

describe("this machine as a node", () => {
  const host = new LocalNodeHost({ env: { ...process.env, DISPLAY: "" } });
  const tool = nodesTool(host);
  const call = (args: Record<string, unknown>) => tool.execute("n", args as never);

  it("reports real device info, status and health", async () => {
    const nodes = body(await call({ action: "status" })).nodes;
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ nodeId: "local", connected: true, paired: true });
    expect(nodes[0].commands).toEqual(["device.info", "device.status", "device.health", "system.notify"]);
    const info = body(await call({ action: "device_info" }));
    expect(info.cpu.cores).toBe((await import("node:os")).cpus().length);
    expect(info.memory.totalBytes).toBe((await import("node:os")).totalmem());
    const status = body(await call({ action: "device_status", node: "local" }));
    expect(status.uptimeSeconds).toBeGreaterThan(0);
    expect(status.loadAverage).toHaveLength(3);
    expect(status.disk.totalBytes).toBeGreaterThan(status.disk.freeBytes);
    const health = body(await call({ action: "device_health" }));
    expect(typeof health.ok).toBe("boolean");
    expect(Array.isArray(health.problems)).toBe(true);
  });

  it("delivers notify to the app", async () => {
    const seen: LocalNotification[] = [];
    host.events.on("notify", (n) => seen.push(n));
    expect(body(await call({ action: "notify", title: "Build", body: "done", priority: "active" }))).toEqual({
      ok: true,
    });
    expect(seen).toMatchObject([{ title: "Build", body: "done", priority: "active" }]);
    expect(error(await call({ action: "notify" }))).toBe(`${where("notify")}title or body required`);
  });

  it("refuses what it cannot do with OpenClaw's errors, and never runs shell commands", async () => {
    for (const [action, command] of [
      ["camera_list", "camera.list"],
      ["location_get", "location.get"],
      ["notifications_list", "notifications.list"],
      ["device_permissions", "device.permissions"],
      ["photos_latest", "photos.latest"],
      ["screen_record", "screen.record"],
      ["camera_clip", "camera.clip"],
    ] as const) {
      expect(error(await call({ action }))).toBe(
        `${where(action)}node command not allowed: node local does not support "${command}"`,
      );
    }
    // out-of-range values are refused, not clamped
    for (const bad of [{ timeoutMs: -1 }, { limit: -1 }]) {
      const refused = await call({ action: "photos_latest", ...bad });
      expect(refused.isError).toBe(true);
      expect(body(refused).error).toContain(`  - ${Object.keys(bad)[0]}: must be >= 1`);
    }
    // without a display, OpenClaw's refusal says what is missing and how to provide it
    expect(error(await call({ action: "screen_snapshot" }))).toBe(
      `${where("screen_snapshot")}node command not allowed: node local does not support "screen.snapshot" (no display: DISPLAY is not set (start Xvfb or a desktop session and set DISPLAY; ImageMagick's \`import\` captures it))`,
    );
    expect(error(await call({ action: "camera_snap", facing: "up" }))).toBe(
      `${where("camera_snap")}invalid facing (front|back|both)`,
    );
    expect(error(await call({ action: "camera_snap", facing: "both", deviceId: "x" }))).toBe(
      `${where("camera_snap")}facing=both is not allowed when deviceId is set`,
    );
    expect(error(await call({ action: "notifications_action", notificationAction: "star" }))).toBe(
      `${where("notifications_action")}notificationAction must be open|dismiss|reply`,
    );
    expect(error(await call({ action: "notifications_action", notificationAction: "reply" }))).toBe(
      `${where("notifications_action")}notificationReplyText required when notificationAction=reply`,
    );
    expect(
      error(
        await call({ action: "invoke", invokeCommand: "system.run", invokeParamsJson: '{"command":["id"]}' }),
      ),
    ).toBe(
      `${where("invoke")}invokeCommand "system.run" is reserved for shell execution; use exec with host=node instead`,
    );
    expect(error(await call({ action: "invoke", invokeCommand: "system.run.prepare" }))).toContain(
      "reserved for shell execution",
    );
    expect(error(await call({ action: "invoke", invokeCommand: "camera.snap" }))).toBe(
      `${where("invoke")}invokeCommand "camera.snap" returns media payloads and is blocked to prevent base64 context bloat; use action="camera_snap"`,
    );
    expect(
      error(await call({ action: "invoke", invokeCommand: "device.info", invokeParamsJson: "{bad" })),
    ).toMatch(/invokeParamsJson must be valid JSON: /);
    expect(body(await call({ action: "invoke", invokeCommand: "device.info" })).hostname).toBeTruthy();
    expect(error(await call({ action: "status", node: "x" }))).toBe("");
    expect(error(await call({ action: "describe", node: "phone" }))).toBe(
      `${where("describe", "phone")}unknown node: phone (known: local)`,
    );
    expect(error(await call({ action: "approve", requestId: "r1" }))).toContain(
      "unknown pairing request: r1",
    );
    expect(body(await call({ action: "pending" }))).toEqual({ pending: [] });
  });
});

const xvfb = which("Xvfb");
const capture = which("import");

describe.skipIf(!xvfb || !capture)("screen snapshot under Xvfb", () => {
  let server: ChildProcess;
  let display = "";
  beforeAll(async () => {
    // Xvfb picks a free display itself and writes its number to fd 3 once it accepts clients
    server = spawn(xvfb!, ["-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    });
    display = await new Promise<string>((resolve, reject) => {
      let out = "";
      const fd3 = server.stdio[3] as NodeJS.ReadableStream;
      fd3.setEncoding("utf8");
      fd3.on("data", (chunk: string) => {
        out += chunk;
        if (out.includes("\n")) resolve(`:${out.trim()}`);
      });
      server.once("exit", (code) => reject(new Error(`Xvfb exited (${code}) before naming its display`)));
      server.once("error", reject);
    });
  });
  afterAll(() => {
    server?.kill();
  });

  it("captures the display as a PNG image result", async () => {
    const host = new LocalNodeHost({ env: { ...process.env, DISPLAY: display } });
    const tool = nodesTool(host);
    const nodes = body(await tool.execute("n", { action: "status" }));
    expect(nodes.nodes[0].commands).toContain("screen.snapshot");
    const shot = await tool.execute("n", { action: "screen_snapshot" });
    const image = shot.content[0] as { type: string; data: string; mimeType: string };
    expect(image.mimeType).toBe("image/png");
    const png = Buffer.from(image.data, "base64");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 480]);
  });
});
