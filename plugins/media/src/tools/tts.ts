import { mkdir } from "node:fs/promises";
import path from "node:path";
import {
  type AgentTool,
  type AgentToolResult,
  readStringParam,
  type ToolContext,
  Type,
} from "@clawtools/core";
import type { LinkedFiles } from "@clawtools/core/resources";
import { type AudioOutput, saveAudio, sweepAudio } from "../tts/output.js";
import type { SpeechAudio, SpeechFormat, SpeechProvider } from "../tts/provider.js";

export const ttsSchema = Type.Object(
  {
    text: Type.String({ description: "Text to speak." }),
    channel: Type.Optional(
      Type.String({
        description: "Channel the audio is for (picks the format: voice notes for telegram, discord…).",
      }),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 600_000,
        description: "Per-provider timeout in ms (default 30,000).",
      }),
    ),
  },
  { additionalProperties: false },
);

export const TTS_MAX_CHARS = 4096;
/** Channels that play Opus voice notes (OpenClaw's list). */
export const VOICE_CHANNELS = new Set(["telegram", "feishu", "whatsapp", "matrix", "discord"]);
export const SILENT_TOKEN = "NO_REPLY";

export interface TtsToolOptions {
  providers: Array<SpeechProvider | string>;
  /** Where audio files go (inside the workspace when there is one). */
  output: AudioOutput;
  /** Scratch space for the providers' temporary files (under the state directory). */
  workDir: string;
  timeoutMs?: number;
  /** Where the audio is served as a resource (the result links it), per session. */
  files?: LinkedFiles;
}

const MIME: Record<SpeechFormat, string> = { opus: "audio/ogg", mp3: "audio/mpeg", wav: "audio/wav" };

/** OpenClaw's failure shape (the text and `details.error`), marked as the error it is. */
const failure = (error: string): AgentToolResult<{ error: string }> => ({
  content: [{ type: "text", text: error }],
  details: { error },
  isError: true,
});

export function createTtsTool(ctx: ToolContext, options: TtsToolOptions): AgentTool<typeof ttsSchema> {
  return {
    name: "tts",
    label: "Text to speech",
    description: `Convert text to speech. Audio is delivered automatically from the tool result — reply with ${SILENT_TOKEN} after a successful call to avoid duplicate messages.`,
    parameters: ttsSchema,
    async execute(_id, params, signal) {
      // OpenClaw's readStringParam(required): empty or blank text is refused before any provider runs
      const text = readStringParam(params, "text", { required: true });
      if (text.length > TTS_MAX_CHARS)
        return failure(`Text too long (${text.length} chars, max ${TTS_MAX_CHARS})`);
      const voice = params.channel ? VOICE_CHANNELS.has(params.channel.toLowerCase()) : false;
      const format: SpeechFormat = voice ? "opus" : "mp3";
      const timeoutMs = params.timeoutMs ?? options.timeoutMs ?? 30_000;
      await mkdir(options.workDir, { recursive: true });
      await sweepAudio(options.output);
      const errors: string[] = [];
      for (const provider of options.providers) {
        if (typeof provider === "string") {
          errors.push(`${provider}: no provider registered`);
          continue;
        }
        const why = provider.unavailable();
        if (why) {
          errors.push(`${provider.id}: ${why}`);
          continue;
        }
        let audio: SpeechAudio;
        try {
          audio = await provider.synthesize({
            text,
            format,
            timeoutMs,
            workDir: options.workDir,
            ...(signal ? { signal } : {}),
          });
          if (audio.data.length === 0) throw new Error("returned no audio");
        } catch (error) {
          if (signal?.aborted) throw error;
          errors.push(`${provider.id}: ${(error as Error).message}`);
          continue;
        }
        const saved = await saveAudio(options.output, audio.data, audio.ext);
        const asVoice = voice && audio.format === "opus";
        const where = saved.workspacePath ? `${saved.workspacePath} in the workspace` : saved.path;
        return {
          content: [
            { type: "text", text: `Generated audio reply. Saved as ${where}.` },
            { type: "audio", data: audio.data.toString("base64"), mimeType: MIME[audio.format] },
            // the file itself, for a host that plays or forwards it (read with resources/read)
            ...(options.files
              ? [
                  options.files.link(ctx, {
                    path: saved.path,
                    name: path.basename(saved.path),
                    title: "Speech audio",
                    description: `Speech for "${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`,
                    mimeType: MIME[audio.format],
                    size: audio.data.length,
                  }),
                ]
              : []),
          ],
          details: {
            audioPath: saved.path,
            ...(saved.workspacePath ? { path: saved.workspacePath } : {}),
            provider: provider.id,
            format: audio.format,
            mimeType: MIME[audio.format],
            bytes: audio.data.length,
            media: { mediaUrl: saved.path, ...(asVoice ? { audioAsVoice: true } : {}) },
          },
        };
      }
      return failure(
        errors.length > 0
          ? `TTS conversion failed: ${errors.join("; ")}`
          : "TTS conversion failed: no providers available",
      );
    },
  };
}
