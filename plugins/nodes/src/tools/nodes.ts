import {
  type AgentTool,
  type AgentToolResult,
  jsonResult,
  type ToolContext,
  ToolInputError,
} from "@clawtools/core";
import type { NodeHost } from "../host.js";
import { fail, findNode } from "./find-node.js";
import { MEDIA_COMMANDS, type Params, READS, SHELL_COMMANDS } from "./nodes-commands.js";
import { type Action, nodesSchema } from "./nodes-schema.js";

export { NODES_ACTIONS, nodesSchema } from "./nodes-schema.js";

export interface NodesToolOptions {
  host: NodeHost;
  /** Shown in errors as `gateway=` (default "default": no gateway, the host is in-process). */
  gatewayLabel?: string;
}

const DESCRIPTION =
  "Use paired nodes (devices): list and describe them, read device info, status and health, send notifications, take screen snapshots where a display exists. Shell commands go through exec, not nodes.";

export function createNodesTool(ctx: ToolContext, options: NodesToolOptions): AgentTool<typeof nodesSchema> {
  const { host } = options;

  const resolveNode = (query: string | undefined) => findNode(host, query);

  async function run(p: Params, signal?: AbortSignal): Promise<AgentToolResult<unknown>> {
    const action = p.action as Action;
    const timeoutMs = Math.min(Math.max(1_000, Number(p.timeoutMs ?? 30_000)), 300_000);
    const invoke = async (command: string, params: Params = {}) => {
      const node = await resolveNode(p.node as string | undefined);
      return {
        node,
        payload: await host.invoke(node.nodeId, command, params, {
          timeoutMs,
          ...(signal ? { signal } : {}),
        }),
      };
    };
    // the node's answer is the tool's result as it came
    const relay = async (command: string, params: Params = {}) =>
      jsonResult((await invoke(command, params)).payload);
    switch (action) {
      case "status":
        return jsonResult({ nodes: await host.list() });
      case "describe":
        return jsonResult(await host.describe((await resolveNode(p.node as string | undefined)).nodeId));
      case "pending":
        return jsonResult({ pending: await host.pending() });
      case "approve":
      case "reject": {
        if (typeof p.requestId !== "string" || !p.requestId) return fail("requestId required");
        return jsonResult(
          action === "approve" ? await host.approve(p.requestId) : await host.reject(p.requestId),
        );
      }
      case "notify": {
        if (!p.title && !p.body) return fail("title or body required");
        const { title, body, sound, priority, delivery } = p;
        await invoke("system.notify", { title, body, sound, priority, delivery });
        return jsonResult({ ok: true });
      }
      case "camera_snap": {
        const facing = (p.facing as string | undefined) ?? "front";
        if (!["front", "back", "both"].includes(facing)) return fail("invalid facing (front|back|both)");
        if (facing === "both" && p.deviceId) return fail("facing=both is not allowed when deviceId is set");
        const { payload } = await invoke("camera.snap", {
          facing,
          maxWidth: p.maxWidth ?? 1600,
          quality: p.quality ?? 0.95,
          format: "jpg",
          delayMs: p.delayMs,
          deviceId: p.deviceId,
        });
        return jsonResult(payload);
      }
      case "camera_clip":
        return relay("camera.clip", {
          facing: p.facing,
          durationMs: p.durationMs,
          includeAudio: p.includeAudio,
        });
      case "photos_latest": {
        const limit = Math.min(Math.max(1, Math.floor(Number(p.limit ?? 1))), 20);
        return relay("photos.latest", { limit, maxWidth: p.maxWidth ?? 1600, quality: p.quality ?? 0.85 });
      }
      case "screen_record":
        return relay("screen.record", {
          durationMs: Math.min(Number(p.durationMs ?? 10_000), 300_000),
          fps: p.fps ?? 10,
          screenIndex: p.screenIndex,
          includeAudio: p.includeAudio ?? true,
        });
      case "screen_snapshot": {
        const { node, payload } = await invoke("screen.snapshot", { screenIndex: p.screenIndex });
        const shot = payload as { format?: string; base64?: string };
        if (!shot?.base64 || !shot.format) throw new Error("invalid screen.snapshot payload");
        return {
          content: [
            {
              type: "image",
              data: shot.base64,
              mimeType: `image/${shot.format === "jpg" ? "jpeg" : shot.format}`,
            },
          ],
          details: { node: node.nodeId, format: shot.format, label: "nodes:screen_snapshot" },
        };
      }
      case "location_get":
        return relay("location.get", {
          maxAgeMs: p.maxAgeMs,
          desiredAccuracy: p.desiredAccuracy,
          timeoutMs: p.locationTimeoutMs,
        });
      case "notifications_action": {
        const kind = p.notificationAction;
        if (kind !== "open" && kind !== "dismiss" && kind !== "reply")
          return fail("notificationAction must be open|dismiss|reply");
        if (kind === "reply" && !p.notificationReplyText)
          return fail("notificationReplyText required when notificationAction=reply");
        return relay("notifications.actions", {
          key: p.notificationKey,
          action: kind,
          replyText: p.notificationReplyText,
        });
      }
      case "invoke": {
        const command = typeof p.invokeCommand === "string" ? p.invokeCommand.trim() : "";
        if (!command) return fail("invokeCommand required");
        if (SHELL_COMMANDS.has(command))
          return fail(
            `invokeCommand "${command}" is reserved for shell execution; use exec with host=node instead`,
          );
        const mediaAction = MEDIA_COMMANDS[command];
        if (mediaAction)
          return fail(
            `invokeCommand "${command}" returns media payloads and is blocked to prevent base64 context bloat; use action="${mediaAction}"`,
          );
        let params: Params = {};
        if (typeof p.invokeParamsJson === "string" && p.invokeParamsJson.trim()) {
          try {
            params = JSON.parse(p.invokeParamsJson) as Params;
          } catch (error) {
            return fail(`invokeParamsJson must be valid JSON: ${(error as Error).message}`);
          }
        }
        return relay(command, params);
      }
      default: {
        const command = READS[action];
        if (!command) return fail(`Unknown action: ${String(action).slice(0, 40)}`);
        return relay(command);
      }
    }
  }

  return {
    name: "nodes",
    label: "Nodes",
    description: DESCRIPTION,
    parameters: nodesSchema,
    async execute(_id, params, signal) {
      const p = params as Params;
      try {
        return await run(p, signal);
      } catch (error) {
        // OpenClaw names where the call went in every error
        const where = `agent=${ctx.agentId ?? "main"} node=${(p.node as string | undefined) ?? "auto"} gateway=${options.gatewayLabel ?? "default"} action=${String(p.action)}`;
        const message = `${where}: ${(error as Error).message}`;
        throw error instanceof ToolInputError ? new ToolInputError(message) : new Error(message);
      }
    },
  };
}
