/** The wire formats a configured model can speak without a provider SDK of its own. */
export type WireApi = "openai-completions" | "anthropic-messages" | "google-generative-ai";

export const WIRE_APIS: readonly WireApi[] = [
  "openai-completions",
  "anthropic-messages",
  "google-generative-ai",
];

/** Where one provider's models are served and which variables hold its key and endpoint. */
export interface ProviderEndpoint {
  api: WireApi;
  /** The provider's own public endpoint. */
  baseUrl: string;
  /** The variables holding this provider's key, first set wins. */
  keyEnv: readonly string[];
  /** The variable pointing this provider at an endpoint of the user's own. */
  baseEnv: string;
}

/** `xai` → `XAI`, `moonshotai-cn` → `MOONSHOTAI_CN`: the stem of a provider's own variables. */
export const envStem = (provider: string) => provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_");

const openaiLike = (baseUrl: string, ...keyEnv: string[]) => ({
  api: "openai-completions" as const,
  baseUrl,
  keyEnv,
});

// Each provider's key goes to that provider's endpoint and nowhere else. The variable names are
// the providers' own (what their SDKs and OpenClaw read).
const TABLE: Record<string, Omit<ProviderEndpoint, "baseEnv"> & { baseEnv?: string }> = {
  openai: openaiLike("https://api.openai.com/v1", "OPENAI_API_KEY"),
  anthropic: {
    api: "anthropic-messages",
    baseUrl: "https://api.anthropic.com",
    keyEnv: ["ANTHROPIC_API_KEY"],
  },
  google: {
    api: "google-generative-ai",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    baseEnv: "GEMINI_BASE_URL",
  },
  xai: openaiLike("https://api.x.ai/v1", "XAI_API_KEY"),
  groq: openaiLike("https://api.groq.com/openai/v1", "GROQ_API_KEY"),
  cerebras: openaiLike("https://api.cerebras.ai/v1", "CEREBRAS_API_KEY"),
  deepseek: openaiLike("https://api.deepseek.com", "DEEPSEEK_API_KEY"),
  openrouter: openaiLike("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
  mistral: openaiLike("https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
  together: openaiLike("https://api.together.xyz/v1", "TOGETHER_API_KEY"),
  fireworks: openaiLike("https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"),
  perplexity: openaiLike("https://api.perplexity.ai", "PERPLEXITY_API_KEY"),
  moonshotai: openaiLike("https://api.moonshot.ai/v1", "MOONSHOT_API_KEY"),
  "moonshotai-cn": openaiLike("https://api.moonshot.cn/v1", "MOONSHOT_API_KEY"),
  huggingface: openaiLike("https://router.huggingface.co/v1", "HF_TOKEN", "HUGGINGFACE_API_KEY"),
  zai: openaiLike("https://api.z.ai/api/paas/v4", "ZAI_API_KEY"),
  "vercel-ai-gateway": openaiLike("https://ai-gateway.vercel.sh/v1", "AI_GATEWAY_API_KEY"),
  minimax: {
    api: "anthropic-messages",
    baseUrl: "https://api.minimax.io/anthropic",
    keyEnv: ["MINIMAX_API_KEY"],
  },
  "kimi-coding": {
    api: "anthropic-messages",
    baseUrl: "https://api.kimi.com/coding",
    keyEnv: ["KIMI_API_KEY"],
  },
};

/** The providers clawtools knows an endpoint for, by name. */
export const KNOWN_PROVIDERS: readonly string[] = Object.keys(TABLE);

/** The endpoint and variables of a provider clawtools knows; undefined for any other. */
export function knownProvider(provider: string): ProviderEndpoint | undefined {
  if (!Object.hasOwn(TABLE, provider)) return undefined;
  const entry = TABLE[provider]!;
  return { ...entry, baseEnv: entry.baseEnv ?? `${envStem(provider)}_BASE_URL` };
}

/** Every variable that holds a provider key (for registering their values as secrets). */
export function providerKeyVariables(): string[] {
  return [...new Set(Object.values(TABLE).flatMap((p) => p.keyEnv))];
}
