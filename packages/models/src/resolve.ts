import { type Api, getEnvApiKey, getModels, type KnownProvider, type Model } from "@mariozechner/pi-ai";

/** The wire formats a configured model can speak without a provider SDK of its own. */
export type WireApi = "openai-completions" | "anthropic-messages" | "google-generative-ai";

export interface ModelSpec {
  /** `provider/model`, e.g. `openai/gpt-4o-mini`, `anthropic/claude-sonnet-4-5`, `google/gemini-2.5-flash`. */
  model: string;
  /** Overrides the wire format (default: by provider; OpenAI-compatible for unknown providers). */
  api?: WireApi;
  baseUrl?: string;
  apiKey?: string;
  /** Whether the model takes images (default true for a model pi-ai does not list). */
  vision?: boolean;
}

export interface ResolvedModel {
  model: Model<Api>;
  /** The key to send; undefined when none is configured (loopback servers, local models). */
  apiKey: string | undefined;
  /** `provider/model`, for results. */
  label: string;
}

const DEFAULT_API: Record<string, WireApi> = {
  openai: "openai-completions",
  anthropic: "anthropic-messages",
  google: "google-generative-ai",
};
const DEFAULT_BASE: Record<WireApi, string> = {
  "openai-completions": "https://api.openai.com/v1",
  "anthropic-messages": "https://api.anthropic.com",
  "google-generative-ai": "https://generativelanguage.googleapis.com/v1beta",
};
// The providers' own SDK variables for an endpoint of one's own (OPENAI_BASE_URL points an
// OpenAI-compatible server, Ollama or vLLM say, at the same code path).
const BASE_ENV: Record<WireApi, string> = {
  "openai-completions": "OPENAI_BASE_URL",
  "anthropic-messages": "ANTHROPIC_BASE_URL",
  "google-generative-ai": "GEMINI_BASE_URL",
};
const KEY_ENV: Record<WireApi, string[]> = {
  "openai-completions": ["OPENAI_API_KEY"],
  "anthropic-messages": ["ANTHROPIC_API_KEY"],
  "google-generative-ai": ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
};

/** A spec that cannot be used; the message names what to set. */
export class ModelConfigError extends Error {
  override name = "ModelConfigError";
}

/**
 * Turns `provider/model` into a pi-ai model (the provider library every clawtools model call
 * goes through) with its base URL and key: configuration first, then the provider's own
 * environment variables, then pi-ai's registry for known models.
 */
export function resolveModel(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env): ResolvedModel {
  const slash = spec.model.indexOf("/");
  if (slash <= 0 || slash === spec.model.length - 1)
    throw new ModelConfigError(`model must be "provider/model" (got "${spec.model.slice(0, 80)}")`);
  const provider = spec.model.slice(0, slash);
  const id = spec.model.slice(slash + 1);
  const api: WireApi = spec.api ?? DEFAULT_API[provider] ?? "openai-completions";
  let known: Model<Api> | undefined;
  try {
    known = (getModels(provider as KnownProvider) as Model<Api>[]).find((m) => m.id === id);
  } catch {
    known = undefined;
  }
  const baseUrl =
    spec.baseUrl ??
    env[BASE_ENV[api]] ??
    (known && known.api === api ? known.baseUrl : undefined) ??
    DEFAULT_BASE[api];
  const apiKey =
    spec.apiKey ?? KEY_ENV[api].map((k) => env[k]).find(Boolean) ?? (getEnvApiKey(provider) || undefined);
  const model: Model<Api> = {
    id,
    name: known?.name ?? id,
    api,
    provider,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    reasoning: known?.reasoning ?? false,
    input: known?.input ?? (spec.vision === false ? ["text"] : ["text", "image"]),
    cost: known?.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: known?.contextWindow ?? 128_000,
    maxTokens: known?.maxTokens ?? 8_192,
  };
  return { model, apiKey, label: `${provider}/${id}` };
}
