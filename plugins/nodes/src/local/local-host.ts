import { execFile } from "node:child_process";
import { EventEmitter } from "node:events";
import os from "node:os";
import { ToolInputError } from "@clawtools/core";
import { type NodeHost, type NodeInfo, notSupported } from "../host.js";
import { deviceHealth, deviceInfo, deviceStatus } from "./device.js";
import { captureScreen, screenAvailable, which } from "./screen.js";

export interface LocalNotification {
  title?: string;
  body?: string;
  sound?: string;
  priority?: string;
  delivery?: string;
  at: string;
}

export interface LocalNodeHostOptions {
  /** Node id (default "local"). */
  nodeId?: string;
  /** Environment to look for a display and notifier in (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Filesystem whose use device.status reports (default "/"). */
  diskPath?: string;
}

/**
 * This machine as a node, advertising only what it can really do: device info, status and
 * health always; `system.notify` always (an event the app receives, plus `notify-send` when a
 * desktop session bus is there); `screen.snapshot` when a display and a capture tool exist.
 * Camera, location, photos and the rest are not offered, and refused with OpenClaw's text.
 */
export class LocalNodeHost implements NodeHost {
  readonly nodeId: string;
  /** `notify` events carry every notification sent to this node. */
  readonly events = new EventEmitter<{ notify: [LocalNotification] }>();
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: LocalNodeHostOptions = {}) {
    this.nodeId = options.nodeId ?? "local";
    this.env = options.env ?? process.env;
  }

  private commands(): string[] {
    const commands = ["device.info", "device.status", "device.health", "system.notify"];
    if (screenAvailable(this.env).ok) commands.push("screen.snapshot");
    return commands;
  }

  private info(): NodeInfo {
    const commands = this.commands();
    return {
      nodeId: this.nodeId,
      displayName: os.hostname(),
      platform: process.platform,
      connected: true,
      paired: true,
      caps: ["device", "system", ...(commands.includes("screen.snapshot") ? ["screen"] : [])],
      commands,
    };
  }

  async list(): Promise<NodeInfo[]> {
    return [this.info()];
  }

  async describe(nodeId: string) {
    this.check(nodeId);
    const screen = screenAvailable(this.env);
    return {
      ...this.info(),
      ...(screen.ok ? {} : { unavailable: { "screen.snapshot": screen.why } }),
      device: deviceInfo(),
    };
  }

  private check(nodeId: string): void {
    if (nodeId !== this.nodeId)
      throw new ToolInputError(`unknown node: ${nodeId.slice(0, 60)} (known: ${this.nodeId})`);
  }

  async invoke(
    nodeId: string,
    command: string,
    params: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ) {
    this.check(nodeId);
    if (!this.commands().includes(command)) {
      // OpenClaw's refusal; for the screen, also what this machine lacks and how to provide it
      const screen = command === "screen.snapshot" ? screenAvailable(this.env) : undefined;
      const why = screen && !screen.ok ? ` (${screen.why})` : "";
      throw new ToolInputError(`${notSupported(nodeId, command)}${why}`);
    }
    switch (command) {
      case "device.info":
        return deviceInfo();
      case "device.status":
        return deviceStatus(this.options.diskPath);
      case "device.health":
        return deviceHealth(this.options.diskPath);
      case "system.notify":
        return this.notify(params);
      case "screen.snapshot": {
        const screen = screenAvailable(this.env);
        if (!screen.ok) throw new ToolInputError(`${notSupported(nodeId, command)} (${screen.why})`);
        const png = await captureScreen(screen.tool, {
          timeoutMs: options.timeoutMs,
          env: this.env,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        return { format: "png", base64: png.toString("base64") };
      }
      default:
        throw new ToolInputError(notSupported(nodeId, command));
    }
  }

  private async notify(params: Record<string, unknown>) {
    const str = (k: string) => (typeof params[k] === "string" ? (params[k] as string) : undefined);
    const note: LocalNotification = {
      ...(str("title") ? { title: str("title")! } : {}),
      ...(str("body") ? { body: str("body")! } : {}),
      ...(str("sound") ? { sound: str("sound")! } : {}),
      ...(str("priority") ? { priority: str("priority")! } : {}),
      ...(str("delivery") ? { delivery: str("delivery")! } : {}),
      at: new Date().toISOString(),
    };
    this.events.emit("notify", note);
    // the desktop's own notifier, when there is a session to show it in
    const notifySend = this.env.DBUS_SESSION_BUS_ADDRESS ? which("notify-send", this.env) : undefined;
    let desktop = false;
    if (notifySend) {
      desktop = await new Promise<boolean>((resolve) =>
        execFile(
          notifySend,
          ["--", note.title ?? "", note.body ?? ""],
          { timeout: 5_000, env: this.env },
          (error) => resolve(!error),
        ),
      );
    }
    return { ok: true, delivered: { app: this.events.listenerCount("notify") > 0, desktop } };
  }

  async pending() {
    return [];
  }

  async approve(requestId: string): Promise<never> {
    throw new ToolInputError(
      `unknown pairing request: ${requestId.slice(0, 60)} (the local node is always paired)`,
    );
  }

  async reject(requestId: string): Promise<never> {
    throw new ToolInputError(
      `unknown pairing request: ${requestId.slice(0, 60)} (the local node is always paired)`,
    );
  }
}
