export { type ImageConfig, type MediaConfig, MediaConfigSchema, type TtsConfig } from "./config.js";
export { type LoadedImage, loadImage, sniffImage } from "./image/load.js";
export {
  createMediaPlugin,
  type MediaPluginOptions,
  mediaPlugin,
  mediaPlugin as default,
  NO_IMAGE_MODEL,
} from "./plugin.js";
export { createImageTool, DEFAULT_MAX_IMAGES, DEFAULT_PROMPT, imageSchema } from "./tools/image.js";
export { createTtsTool, SILENT_TOKEN, TTS_MAX_CHARS, ttsSchema, VOICE_CHANNELS } from "./tools/tts.js";
export { type CliSpeechOptions, createCliSpeechProvider } from "./tts/cli.js";
export { createEspeakProvider, type EspeakOptions } from "./tts/espeak.js";
export {
  createElevenLabsProvider,
  createOpenAiSpeechProvider,
  type ElevenLabsOptions,
  type OpenAiSpeechOptions,
} from "./tts/http-providers.js";
export type { SpeechAudio, SpeechFormat, SpeechProvider, SpeechRequest } from "./tts/provider.js";
