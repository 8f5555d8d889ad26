import type { TtsConfig } from "../config.js";
import { createCliSpeechProvider } from "./cli.js";
import { createEspeakProvider } from "./espeak.js";
import { createElevenLabsProvider, createOpenAiSpeechProvider } from "./http-providers.js";
import type { SpeechProvider } from "./provider.js";

/**
 * The providers in fallback order: the configured list, else every configured one (cli, openai,
 * elevenlabs) and then the embedded espeak-ng. An unknown name stays in the chain as a provider
 * that fails with OpenClaw's "no provider registered".
 */
export function speechChain(
  config: TtsConfig = {},
  env: NodeJS.ProcessEnv = process.env,
): Array<SpeechProvider | string> {
  const build = (id: string): SpeechProvider | string => {
    switch (id) {
      case "espeak":
        return createEspeakProvider({ ...config.espeak, env });
      case "cli":
        return config.cli ? createCliSpeechProvider(config.cli) : missing("cli");
      case "openai":
        return createOpenAiSpeechProvider(config.openai ?? {}, env);
      case "elevenlabs":
        return createElevenLabsProvider(config.elevenlabs ?? {}, env);
      default:
        return id;
    }
  };
  const names =
    config.providers ??
    [
      config.cli ? "cli" : "",
      config.openai ? "openai" : "",
      config.elevenlabs ? "elevenlabs" : "",
      "espeak",
    ].filter(Boolean);
  return names.map(build);
}

const missing = (id: string): SpeechProvider => ({
  id,
  unavailable: () => "not configured",
  synthesize: async () => {
    throw new Error("not configured");
  },
});
