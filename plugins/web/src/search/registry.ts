import { brave } from "./providers/brave.js";
import { duckduckgo } from "./providers/duckduckgo.js";
import { exa } from "./providers/exa.js";
import { grok } from "./providers/grok.js";
import { perplexity } from "./providers/perplexity.js";
import { searxng } from "./providers/searxng.js";
import { tavily } from "./providers/tavily.js";
import type { SearchProvider } from "./types.js";

export const SEARCH_PROVIDERS: readonly SearchProvider[] = [
  brave,
  grok,
  perplexity,
  exa,
  tavily,
  duckduckgo,
  searxng,
].sort((a, b) => a.order - b.order);

export type SearchProviderId = SearchProvider["id"];

export interface SearchProviderConfig {
  apiKey?: string;
  baseUrl?: string;
}

export interface ResolvedProvider {
  provider: SearchProvider;
  apiKey?: string;
  baseUrl: string;
}

export const NO_PROVIDER_HINT =
  'no web search provider configured: set BRAVE_API_KEY, XAI_API_KEY, PERPLEXITY_API_KEY (or OPENROUTER_API_KEY), EXA_API_KEY, TAVILY_API_KEY or SEARXNG_BASE_URL, or choose provider "duckduckgo" (keyless)';

/**
 * The provider to use: the one named (it must be configured), else the first in auto-detect
 * order with credentials from options or the environment. DuckDuckGo is used only when named.
 */
export function resolveSearchProvider(
  options: {
    provider?: SearchProviderId;
    providers?: Partial<Record<SearchProviderId, SearchProviderConfig>>;
  },
  env: NodeJS.ProcessEnv = process.env,
): ResolvedProvider | { error: string } {
  const configure = (provider: SearchProvider): ResolvedProvider | undefined => {
    const config = options.providers?.[provider.id] ?? {};
    const fromEnv = provider.env.map((k) => env[k]).find((v) => v?.trim());
    if (provider.id === "searxng") {
      const baseUrl = config.baseUrl ?? fromEnv;
      return baseUrl ? { provider, baseUrl } : undefined;
    }
    const apiKey = config.apiKey ?? (provider.needsKey ? fromEnv : undefined);
    if (provider.needsKey && !apiKey) return undefined;
    return { provider, ...(apiKey ? { apiKey } : {}), baseUrl: config.baseUrl ?? provider.defaultBaseUrl };
  };
  if (options.provider) {
    const named = SEARCH_PROVIDERS.find((p) => p.id === options.provider);
    if (!named) return { error: `unknown web search provider "${options.provider}"` };
    return (
      configure(named) ?? {
        error: `web search provider "${named.id}" is not configured: set ${named.env.join(" or ") || "its options"}`,
      }
    );
  }
  for (const provider of SEARCH_PROVIDERS) {
    if (provider.id === "duckduckgo") continue;
    const found = configure(provider);
    if (found) return found;
  }
  return { error: NO_PROVIDER_HINT };
}
