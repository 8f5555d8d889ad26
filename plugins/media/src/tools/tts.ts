import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { type AgentTool, type AgentToolResult, type ToolContext, Type } from "@clawtools/core";
import type { SpeechFormat, SpeechProvider } from "../tts/provider.js";

export const ttsSchema = Type.Object(
  {
    text: Type.String({ description: "Text to speak." }),
    channel: Type.Optional(
      Type.String({
        description: "Channel the audio is for (picks the format: voice notes for telegram, discord…).",
      }),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({ minimum: 1, description: "Per-provider timeout (default 30,000)." }),
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
  /** Where audio files go (under the state directory). */
  outDir: string;
  timeoutMs?: number;
  retainHours?: number;
}

const failure = (error: string): AgentToolResult<{ error: string }> => ({
  content: [{ type: "text", text: error }],
  details: { error },
});

/** Removes audio this tool wrote longer ago than `hours`. */
async function sweep(dir: string, hours: number): Promise<void> {
  const cutoff = Date.now() - hours * 3_600_000;
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n.startsWith("voice-"))
      .map(async (n) => {
        const file = path.join(dir, n);
        const st = await stat(file).catch(() => undefined);
        if (st && st.mtimeMs < cutoff) await rm(file, { force: true });
      }),
  );
}

export function createTtsTool(_ctx: ToolContext, options: TtsToolOptions): AgentTool<typeof ttsSchema> {
  return {
    name: "tts",
    label: "Text to speech",
    description: `Convert text to speech. Audio is delivered automatically from the tool result — reply with ${SILENT_TOKEN} after a successful call to avoid duplicate messages.`,
    parameters: ttsSchema,
    async execute(_id, params, signal) {
      const text = params.text;
      if (text.length > TTS_MAX_CHARS)
        return failure(`Text too long (${text.length} chars, max ${TTS_MAX_CHARS})`);
      const voice = params.channel ? VOICE_CHANNELS.has(params.channel.toLowerCase()) : false;
      const format: SpeechFormat = voice ? "opus" : "mp3";
      const timeoutMs = params.timeoutMs ?? options.timeoutMs ?? 30_000;
      await mkdir(options.outDir, { recursive: true });
      await sweep(options.outDir, options.retainHours ?? 24);
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
        try {
          const audio = await provider.synthesize({
            text,
            format,
            timeoutMs,
            workDir: options.outDir,
            ...(signal ? { signal } : {}),
          });
          const audioPath = path.join(options.outDir, `voice-${Date.now()}${audio.ext}`);
          await writeFile(audioPath, audio.data);
          const asVoice = voice && audio.format === "opus";
          return {
            content: [{ type: "text", text: "Generated audio reply." }],
            details: {
              audioPath,
              provider: provider.id,
              format: audio.format,
              media: { mediaUrl: audioPath, ...(asVoice ? { audioAsVoice: true } : {}) },
            },
          };
        } catch (error) {
          if (signal?.aborted) throw error;
          errors.push(`${provider.id}: ${(error as Error).message}`);
        }
      }
      return failure(
        errors.length > 0
          ? `TTS conversion failed: ${errors.join("; ")}`
          : "TTS conversion failed: no providers available",
      );
    },
  };
}
