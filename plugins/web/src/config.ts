import { optionalStringEnum, readSectionConfig, type Static, type ToolContext, Type } from "@clawtools/core";

const providerIds = ["brave", "grok", "perplexity", "exa", "tavily", "searxng", "duckduckgo"] as const;

const providerConfig = Type.Optional(
  Type.Object(
    {
      apiKey: Type.Optional(Type.String({ description: "API key (overrides the environment variable)." })),
      baseUrl: Type.Optional(
        Type.String({ description: "Base URL of the API (a proxy, a self-hosted instance)." }),
      ),
    },
    { additionalProperties: false },
  ),
);

const ssrfPolicy = Type.Object(
  {
    allowPrivateNetwork: Type.Optional(Type.Boolean()),
    /** OpenClaw's name for allowPrivateNetwork (`tools.web.fetch.ssrfPolicy.dangerouslyAllowPrivateNetwork`). */
    dangerouslyAllowPrivateNetwork: Type.Optional(Type.Boolean()),
    allowRfc2544BenchmarkRange: Type.Optional(Type.Boolean()),
    allowedHostnames: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/**
 * `config.web`, following OpenClaw's `tools.web.*` names: `search.provider`,
 * `search.<provider>.apiKey|baseUrl`, `fetch.maxChars`, `fetch.ssrfPolicy`…
 */
export const webConfigSchema = Type.Object(
  {
    search: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({ description: "false leaves web_search out (default true)." }),
          ),
          provider: optionalStringEnum(providerIds, {
            description: "Provider by name; default: auto-detect.",
          }),
          timeoutSeconds: Type.Optional(Type.Number({ minimum: 1, maximum: 300 })),
          cacheTtlMinutes: Type.Optional(Type.Number({ minimum: 0 })),
          brave: providerConfig,
          grok: providerConfig,
          perplexity: providerConfig,
          exa: providerConfig,
          tavily: providerConfig,
          searxng: providerConfig,
          duckduckgo: providerConfig,
        },
        { additionalProperties: false },
      ),
    ),
    fetch: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean({ description: "false leaves web_fetch out (default true)." })),
          maxChars: Type.Optional(
            Type.Integer({ minimum: 100, description: "Default maxChars (20,000, as OpenClaw 9.6)." }),
          ),
          maxCharsCap: Type.Optional(
            Type.Integer({
              minimum: 100,
              description: "Upper bound on maxChars (default 20,000, as OpenClaw 9.6).",
            }),
          ),
          maxResponseBytes: Type.Optional(
            Type.Integer({ minimum: 1, description: "Bytes read at most (750,000, as OpenClaw 9.6)." }),
          ),
          maxRedirects: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
          timeoutSeconds: Type.Optional(Type.Number({ minimum: 1, maximum: 300 })),
          cacheTtlMinutes: Type.Optional(Type.Number({ minimum: 0 })),
          userAgent: Type.Optional(Type.String()),
          allowPrivateNetwork: Type.Optional(
            Type.Boolean({ description: "Allow loopback and private addresses (local development)." }),
          ),
          ssrfPolicy: Type.Optional(ssrfPolicy),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type WebConfig = Static<typeof webConfigSchema>;
export type WebFetchConfig = NonNullable<WebConfig["fetch"]>;
export type WebSearchConfig = NonNullable<WebConfig["search"]>;
export type SearchProviderId = (typeof providerIds)[number];
export const SEARCH_PROVIDER_IDS: readonly SearchProviderId[] = providerIds;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const defined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * `ctx.config.web` merged with the options given in code (code wins, key by key, one level into
 * `search` / `fetch` and each provider), validated against {@link webConfigSchema}.
 */
export function readWebConfig(ctx: Pick<ToolContext, "config">, inCode: WebConfig = {}): WebConfig {
  const fromCtx = isObject(ctx.config?.web) ? (ctx.config.web as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = {};
  for (const part of ["search", "fetch"] as const) {
    const a = isObject(fromCtx[part]) ? fromCtx[part] : undefined;
    const b = inCode[part] ? defined(inCode[part]) : undefined;
    if (!a && !b) continue;
    if (!a || !b) {
      merged[part] = a ?? b;
      continue;
    }
    const out: Record<string, unknown> = { ...a, ...b };
    for (const [k, v] of Object.entries(b)) if (isObject(v) && isObject(a[k])) out[k] = { ...a[k], ...v };
    merged[part] = out;
  }
  return readSectionConfig(ctx, "web", webConfigSchema, merged as WebConfig);
}

/** The URL policy a fetch config asks for (OpenClaw's `dangerouslyAllowPrivateNetwork` accepted). */
export function urlPolicyOf(fetch: WebFetchConfig = {}) {
  const p = fetch.ssrfPolicy ?? {};
  return {
    ...(fetch.allowPrivateNetwork || p.allowPrivateNetwork || p.dangerouslyAllowPrivateNetwork
      ? { allowPrivateNetwork: true }
      : {}),
    ...(p.allowRfc2544BenchmarkRange ? { allowRfc2544BenchmarkRange: true } : {}),
    ...(p.allowedHostnames?.length ? { allowedHostnames: p.allowedHostnames } : {}),
  };
}
