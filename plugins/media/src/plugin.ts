import path from "node:path";
import { type ClawtoolsPlugin, defineSectionPlugin, ToolUnavailableError } from "@clawtools/core";
import { LinkedFiles } from "@clawtools/core/resources";
import { type MediaConfig, MediaConfigSchema } from "./config.js";
import { createImageTool } from "./tools/image.js";
import { createTtsTool } from "./tools/tts.js";
import { speechChain } from "./tts/chain.js";
import { DEFAULT_AUDIO_DIR } from "./tts/output.js";

export const NO_IMAGE_MODEL =
  "no image model configured (set media.image.model to provider/model, or run clawtools serve --model <provider>/<id>)";

const MODEL_FORM = /^[^/]+\/.+$/;

export interface MediaPluginOptions extends MediaConfig {
  env?: NodeJS.ProcessEnv;
}

/** The media section: `image` (vision through the model provider library) and `tts`. */
export function createMediaPlugin(options: MediaPluginOptions = {}): ClawtoolsPlugin {
  const { env = process.env, ...inCode } = options;
  // the audio tts made, each file readable only by the session whose call made it
  const audio = new LinkedFiles({
    prefix: "clawtools://media/tts/",
    name: "tts audio",
    description:
      "Audio a tts call made (audio/mpeg, audio/ogg or audio/wav), readable by the session that made it",
  });
  return defineSectionPlugin({
    module: import.meta.url,
    config: inCode,
    description: "Media: image understanding and text to speech",
    section: "media",
    configSchema: MediaConfigSchema,
    tools: ({ read: config }) => [
      {
        // OpenClaw 9.6 renamed image to view_image: the same tool under both names (twins in
        // core's catalog, so a policy naming either one names both)
        names: ["image", "view_image"],
        factory: (ctx) => {
          const c = config(ctx);
          const image = c.image ?? {};
          // the app-wide model (`clawtools serve --model`) when the section names none
          const fallback = typeof ctx.config?.model === "string" ? ctx.config.model : undefined;
          const model = image.model ?? fallback;
          if (!model) throw new ToolUnavailableError(NO_IMAGE_MODEL);
          const spec = {
            model,
            ...(image.api ? { api: image.api } : {}),
            ...(image.baseUrl ? { baseUrl: image.baseUrl } : {}),
            ...(image.apiKey ? { apiKey: image.apiKey } : {}),
          };
          // the form is checked here; the model library (pi-ai, ~400 ms to load) resolves the
          // provider, endpoint and key on the first call, so importing the section stays cheap
          if (!MODEL_FORM.test(model))
            throw new ToolUnavailableError(
              `media.image.model: model must be "provider/model" (got "${model.slice(0, 80)}")`,
            );
          const tool = createImageTool(ctx, {
            resolve: async (override) => {
              const { ModelConfigError, resolveModel, withModel } = await import("@clawtools/models");
              try {
                // a model named in the call keeps the configured key and endpoint only for its own provider
                return resolveModel(override ? withModel(spec, override) : spec, env);
              } catch (error) {
                if (error instanceof ModelConfigError && !override)
                  throw new ModelConfigError(`media.image.model: ${error.message}`);
                throw error;
              }
            },
            ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
            maxBytes: Math.round((c.mediaMaxMb ?? 20) * 1024 * 1024),
            maxPixels: image.maxPixels ?? 1568,
            maxTokens: image.maxTokens ?? 4096,
            policy: image.allowPrivateNetwork ? { allowPrivateNetwork: true } : {},
            ...(ctx.sandboxed ? { sandboxed: true } : {}),
          });
          return [tool, { ...tool, name: "view_image", label: "View image" }];
        },
      },
      {
        name: "tts",
        factory: (ctx) => {
          if (!ctx.stateDir)
            throw new ToolUnavailableError("no state directory (context.stateDir) for audio files");
          const tts = config(ctx).tts ?? {};
          const providers = speechChain(tts, env);
          const usable = providers.filter((p) => typeof p !== "string" && !p.unavailable());
          if (usable.length === 0)
            throw new ToolUnavailableError(
              `no speech provider available: ${providers.map((p) => (typeof p === "string" ? `${p}: no provider registered` : `${p.id}: ${p.unavailable()}`)).join("; ")}`,
            );
          // the audio goes where message (media) and a model's read take it: the workspace
          const retainHours = tts.retainHours ?? 24;
          return createTtsTool(ctx, {
            providers,
            output: ctx.workspaceDir
              ? { workspaceDir: ctx.workspaceDir, dir: DEFAULT_AUDIO_DIR, retainHours }
              : { dir: path.join(ctx.stateDir, "media", "tts"), retainHours },
            workDir: path.join(ctx.stateDir, "media", "tts-work"),
            files: audio,
            ...(tts.timeoutMs ? { timeoutMs: tts.timeoutMs } : {}),
          });
        },
      },
    ],
    resources: audio,
  });
}

export const mediaPlugin = createMediaPlugin();
export default mediaPlugin;
