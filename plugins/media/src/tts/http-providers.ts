import { redactSecrets } from "@clawtools/core/safety";
import { httpRequest, isHttpError } from "@clawtools/core/http";
import { EXT, type SpeechAudio, type SpeechProvider, type SpeechRequest } from "./provider.js";

/**
 * One POST through core's HTTP client. Not retried: the tool's provider chain is the fallback,
 * and a retry would hold it up. An error status comes back for the provider to word.
 */
async function post(url: string, headers: Record<string, string>, body: unknown, req: SpeechRequest) {
  try {
    return await httpRequest(url, {
      method: "POST",
      headers,
      json: body,
      timeoutMs: req.timeoutMs,
      maxBytes: 50_000_000,
      throwOnStatus: false,
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (error) {
    if (isHttpError(error) && error.kind === "timeout") throw new Error("request timed out");
    throw error;
  }
}

/** The start of an error body, the provider's key (and every registered secret) taken out. */
const excerpt = (data: Buffer, apiKey: string) =>
  redactSecrets(data.toString("utf8"), [apiKey]).slice(0, 300);

export interface OpenAiSpeechOptions {
  apiKey?: string;
  baseUrl?: string;
  model?: string;
  voice?: string;
}

/** OpenAI's speech API: `POST <base>/audio/speech`, JSON `{model, input, voice, response_format}`. */
export function createOpenAiSpeechProvider(
  options: OpenAiSpeechOptions,
  env: NodeJS.ProcessEnv = process.env,
): SpeechProvider {
  const apiKey = options.apiKey ?? env.OPENAI_API_KEY;
  const base = (options.baseUrl ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  return {
    id: "openai",
    unavailable: () => (apiKey ? undefined : "not configured"),
    async synthesize(req): Promise<SpeechAudio> {
      if (!apiKey) throw new Error("not configured");
      const format = req.format === "wav" ? "wav" : req.format;
      const response = await post(
        `${base}/audio/speech`,
        { authorization: `Bearer ${apiKey}` },
        {
          model: options.model ?? "gpt-4o-mini-tts",
          input: req.text,
          voice: options.voice ?? "alloy",
          response_format: format,
        },
        req,
      );
      const data = response.body;
      if (response.status >= 400) {
        const requestId = response.headers["x-request-id"];
        throw new Error(
          `OpenAI TTS API error (${response.status}): ${excerpt(data, apiKey)}${requestId ? ` [request_id=${requestId}]` : ""}`,
        );
      }
      return { data, format, ext: EXT[format] };
    },
  };
}

export interface ElevenLabsOptions {
  apiKey?: string;
  baseUrl?: string;
  voiceId?: string;
  modelId?: string;
}

/** ElevenLabs: `POST <base>/v1/text-to-speech/<voice>?output_format=…` with `xi-api-key`. */
export function createElevenLabsProvider(
  options: ElevenLabsOptions,
  env: NodeJS.ProcessEnv = process.env,
): SpeechProvider {
  const apiKey = options.apiKey ?? env.ELEVENLABS_API_KEY ?? env.XI_API_KEY;
  const base = (options.baseUrl ?? "https://api.elevenlabs.io").replace(/\/+$/, "");
  return {
    id: "elevenlabs",
    unavailable: () => (apiKey ? undefined : "not configured"),
    async synthesize(req): Promise<SpeechAudio> {
      if (!apiKey) throw new Error("not configured");
      const opus = req.format === "opus";
      const voice = options.voiceId ?? "pMsXgVXv3BLzUgSXRplE";
      const response = await post(
        `${base}/v1/text-to-speech/${encodeURIComponent(voice)}?output_format=${opus ? "opus_48000_64" : "mp3_44100_128"}`,
        { "xi-api-key": apiKey, accept: opus ? "audio/ogg" : "audio/mpeg" },
        {
          text: req.text,
          model_id: options.modelId ?? "eleven_multilingual_v2",
          voice_settings: {
            stability: 0.5,
            similarity_boost: 0.75,
            style: 0,
            use_speaker_boost: true,
            speed: 1,
          },
        },
        req,
      );
      const data = response.body;
      if (response.status >= 400)
        throw new Error(`ElevenLabs API error (${response.status}): ${excerpt(data, apiKey)}`);
      return { data, format: opus ? "opus" : "mp3", ext: opus ? EXT.opus : EXT.mp3 };
    },
  };
}
