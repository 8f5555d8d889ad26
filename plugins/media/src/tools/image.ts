import {
  type AgentTool,
  type AgentToolResult,
  type ToolContext,
  ToolInputError,
  Type,
} from "@clawtools/core";
import type { UrlPolicy } from "@clawtools/core/safety";
// the model library (pi-ai) loads on the first call, not with the section
import type { ResolvedModel } from "@clawtools/models";
import { loadImage, UnsupportedReference } from "../image/load.js";
import { downscale } from "../image/resize.js";

export const DEFAULT_MAX_IMAGES = 20;

export const imageSchema = Type.Object(
  {
    prompt: Type.Optional(
      Type.String({ description: 'What to ask about the image(s) (default "Describe the image.").' }),
    ),
    image: Type.Optional(
      Type.String({ description: "One image: workspace path, file:// URL, data: URL or http(s) URL." }),
    ),
    images: Type.Optional(Type.Array(Type.String(), { description: "Several images, same forms." })),
    model: Type.Optional(
      Type.String({ description: "provider/model to use instead of the configured one." }),
    ),
    maxBytesMb: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    maxImages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DEFAULT_MAX_IMAGES,
        description: "Lower the image cap (default and most: 20).",
      }),
    ),
  },
  { additionalProperties: false },
);

export const DEFAULT_PROMPT = "Describe the image.";

export interface ImageToolOptions {
  resolve: (modelOverride?: string) => ResolvedModel | Promise<ResolvedModel>;
  workspaceDir?: string;
  maxBytes: number;
  maxPixels: number;
  maxTokens: number;
  policy: UrlPolicy;
  sandboxed?: boolean;
}

const answer = (
  text: string,
  details: Record<string, unknown>,
): AgentToolResult<Record<string, unknown>> => ({
  content: [{ type: "text", text }],
  details,
});

export function createImageTool(_ctx: ToolContext, options: ImageToolOptions): AgentTool<typeof imageSchema> {
  return {
    name: "image",
    label: "Image",
    description:
      "Analyze one or more images with the configured image model. Give a prompt and image paths or URLs. Only use this tool when images were NOT already provided in the user's message.",
    parameters: imageSchema,
    async execute(_id, params, signal) {
      const raw = [...(params.image !== undefined ? [params.image] : []), ...(params.images ?? [])];
      if (raw.length === 0) throw new ToolInputError("image required");
      if (raw.some((r) => r.trim() === ""))
        throw new ToolInputError("image required (empty string in array)");
      const refs = [...new Set(raw.map((r) => r.trim().replace(/^@/, "")))];
      const max = params.maxImages ?? DEFAULT_MAX_IMAGES;
      // OpenClaw's text and details, marked as the refusal it is (nothing is loaded or sent)
      if (refs.length > max)
        return {
          ...answer(
            `Too many images: ${refs.length} provided, maximum is ${max}. Please reduce the number of images.`,
            { error: "too_many_images", count: refs.length, max },
          ),
          isError: true,
        };
      const maxBytes = params.maxBytesMb
        ? Math.min(options.maxBytes, params.maxBytesMb * 1024 * 1024)
        : options.maxBytes;
      const loaded = [];
      for (const ref of refs) {
        try {
          const image = await loadImage(ref, {
            ...(options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
            maxBytes,
            policy: options.policy,
            ...(options.sandboxed ? { sandboxed: true } : {}),
            ...(signal ? { signal } : {}),
          });
          loaded.push(await downscale(image, options.maxPixels));
        } catch (error) {
          if (error instanceof UnsupportedReference)
            return answer(error.message, { error: "unsupported_image_reference", image: error.image });
          throw error;
        }
      }
      const resolved = await options.resolve(params.model);
      const { completeText } = await import("@clawtools/models");
      const { text } = await completeText(resolved, {
        content: [
          { type: "text", text: params.prompt?.trim() || DEFAULT_PROMPT },
          ...loaded.map((img) => ({
            type: "image" as const,
            data: img.data.toString("base64"),
            mimeType: img.mimeType,
          })),
        ],
        maxTokens: options.maxTokens,
        ...(signal ? { signal } : {}),
      });
      const resized = loaded
        .filter((img) => "resized" in img && img.resized)
        .map((img) => ({ image: img.ref, ...("resized" in img ? img.resized : {}) }));
      return answer(text, {
        model: resolved.label,
        ...(refs.length === 1 ? { image: refs[0] } : { images: refs.map((image) => ({ image })) }),
        attempts: [{ model: resolved.label, ok: true }],
        ...(resized.length > 0 ? { resized } : {}),
      });
    },
  };
}
