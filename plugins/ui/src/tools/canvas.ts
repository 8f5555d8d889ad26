import { writeFile } from "node:fs/promises";
import {
  type AgentTool,
  type AgentToolResult,
  jsonResult,
  optionalStringEnum,
  type Static,
  stringEnum,
  textResult,
  type ToolContext,
  ToolInputError,
  Type,
} from "@clawtools/core";
import type { LinkedFiles } from "@clawtools/core/resources";
import { openInWorkspace } from "@clawtools/core/safety";
import { MAX_A2UI_BYTES, parseA2uiJsonl } from "../canvas/a2ui.js";
import type { CanvasHost } from "../canvas/host-types.js";
import { mediaPath } from "../files.js";
import { withFileLink } from "./file-link.js";

export const CANVAS_ACTIONS = [
  "present",
  "hide",
  "navigate",
  "eval",
  "snapshot",
  "a2ui_push",
  "a2ui_reset",
] as const;

export const canvasSchema = Type.Object(
  {
    action: stringEnum(CANVAS_ACTIONS, { description: "What to do with the canvas." }),
    gatewayUrl: Type.Optional(Type.String()),
    gatewayToken: Type.Optional(Type.String()),
    timeoutMs: Type.Optional(Type.Number()),
    node: Type.Optional(Type.String()),
    target: Type.Optional(Type.String({ description: "present / navigate: URL to show (alias of url)." })),
    x: Type.Optional(Type.Number()),
    y: Type.Optional(Type.Number()),
    width: Type.Optional(Type.Number()),
    height: Type.Optional(Type.Number()),
    url: Type.Optional(Type.String()),
    javaScript: Type.Optional(Type.String({ description: "eval: JavaScript run in the canvas page." })),
    outputFormat: optionalStringEnum(["png", "jpg", "jpeg"] as const),
    maxWidth: Type.Optional(Type.Number()),
    quality: Type.Optional(Type.Number()),
    delayMs: Type.Optional(Type.Number()),
    jsonl: Type.Optional(
      Type.String({ description: "a2ui_push: A2UI v0.8 messages, one JSON object per line." }),
    ),
    jsonlPath: Type.Optional(Type.String({ description: "a2ui_push: workspace file holding the JSONL." })),
  },
  { additionalProperties: false },
);

type CanvasParams = Static<typeof canvasSchema>;

export interface CanvasToolOptions {
  host: CanvasHost;
  workspaceDir?: string;
  /** Where snapshots are written (with `files`) to be served as resources. */
  stateDir?: string;
  /** Where snapshots are served as resources (the result links them), per session. */
  files?: LinkedFiles;
}

const DESCRIPTION =
  "Show and inspect a canvas: present a URL or an A2UI surface (a2ui_push with JSONL), run JavaScript in it (eval) and look at it (snapshot returns an image).";

async function readJsonl(params: CanvasParams, workspaceDir: string | undefined): Promise<string> {
  if (params.jsonl) return params.jsonl;
  if (!params.jsonlPath) throw new ToolInputError("jsonl or jsonlPath required");
  if (!workspaceDir) throw new ToolInputError("jsonlPath outside allowed roots");
  let opened: Awaited<ReturnType<typeof openInWorkspace>>;
  try {
    opened = await openInWorkspace(workspaceDir, params.jsonlPath, { mode: "read", input: params.jsonlPath });
  } catch (error) {
    if (/escapes sandbox root/.test((error as Error).message))
      throw new ToolInputError("jsonlPath outside allowed roots");
    throw error;
  }
  try {
    if (opened.stat.size > MAX_A2UI_BYTES)
      throw new ToolInputError(`A2UI input over ${MAX_A2UI_BYTES} bytes`);
    return await opened.handle.readFile("utf8");
  } finally {
    await opened.close();
  }
}

export function createCanvasTool(
  ctx: ToolContext,
  options: CanvasToolOptions,
): AgentTool<typeof canvasSchema> {
  const { host } = options;
  async function run(params: CanvasParams): Promise<AgentToolResult<unknown>> {
    if (params.node)
      throw new ToolInputError(
        `unknown node: ${params.node.slice(0, 60)} (known: none; this canvas is local)`,
      );
    const url = params.url ?? params.target;
    switch (params.action) {
      case "present":
        await host.present({
          ...(url ? { url } : {}),
          placement: {
            ...(params.x !== undefined ? { x: params.x } : {}),
            ...(params.y !== undefined ? { y: params.y } : {}),
            ...(params.width !== undefined ? { width: params.width } : {}),
            ...(params.height !== undefined ? { height: params.height } : {}),
          },
        });
        return jsonResult({ ok: true });
      case "hide":
        await host.hide();
        return jsonResult({ ok: true });
      case "navigate":
        if (!url) throw new ToolInputError("url required");
        await host.navigate(url);
        return jsonResult({ ok: true });
      case "eval": {
        if (!params.javaScript) throw new ToolInputError("javaScript required");
        const result = await host.eval(params.javaScript);
        if (result === undefined) return jsonResult({ ok: true });
        return textResult(typeof result === "string" ? result : JSON.stringify(result), { ok: true });
      }
      case "snapshot": {
        const format = params.outputFormat === "png" || params.outputFormat === undefined ? "png" : "jpeg";
        const shot = await host.snapshot({
          format,
          ...(params.maxWidth ? { maxWidth: params.maxWidth } : {}),
          ...(params.quality ? { quality: params.quality } : {}),
          ...(params.delayMs ? { delayMs: params.delayMs } : {}),
        });
        if (!shot || typeof shot.base64 !== "string" || !shot.format)
          throw new Error("invalid canvas.snapshot payload");
        const mimeType = shot.format === "png" ? "image/png" : "image/jpeg";
        const result: AgentToolResult<unknown> = {
          content: [{ type: "image", data: shot.base64, mimeType }],
          details: { format: shot.format, label: "canvas:snapshot" },
        };
        // kept under the state directory, so a host can read it as a resource
        if (!options.files || !options.stateDir) return result;
        const bytes = Buffer.from(shot.base64, "base64");
        const file = await mediaPath(options.stateDir, "canvas", shot.format === "png" ? "png" : "jpg");
        await writeFile(file, bytes);
        return withFileLink(result, options.files, ctx, {
          path: file,
          mimeType,
          size: bytes.length,
          description: "A snapshot of the canvas",
        });
      }
      case "a2ui_push":
        await host.a2uiPush(parseA2uiJsonl(await readJsonl(params, options.workspaceDir)));
        return jsonResult({ ok: true });
      case "a2ui_reset":
        await host.a2uiReset();
        return jsonResult({ ok: true });
      default:
        throw new ToolInputError("Unknown action");
    }
  }
  return {
    name: "canvas",
    label: "Canvas",
    description: DESCRIPTION,
    parameters: canvasSchema,
    execute: async (_id, p) => run(p),
  };
}
