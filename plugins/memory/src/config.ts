import { optionalStringEnum, type Static, Type } from "@clawtools/core";

const strict = { additionalProperties: false } as const;

/**
 * `config.memory`: OpenClaw's `memory.citations` and `memory.search.*` key names (as of 9.6,
 * plus `store.path`, `chunking`, `sync` and `query.hybrid` from its earlier `memorySearch`
 * block). Every object is closed: a misspelt key is an error, not silently ignored.
 */
export const memoryConfigSchema = Type.Object(
  {
    citations: optionalStringEnum(["auto", "on", "off"] as const, {
      description: "Append `Source: path#Lx-Ly` to snippets (auto = on).",
    }),
    memoryGetMaxChars: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "Character budget of one memory_get answer (default 12,000).",
      }),
    ),
    search: Type.Optional(
      Type.Object(
        {
          extraPaths: Type.Optional(
            Type.Array(Type.String(), { description: "More memory files or directories." }),
          ),
          provider: optionalStringEnum(["local", "openai"] as const, {
            description:
              "Embedding provider: local (default, offline) or openai (any OpenAI-compatible /embeddings).",
          }),
          model: Type.Optional(Type.String()),
          outputDimensionality: Type.Optional(
            Type.Integer({ minimum: 1, description: "Vector size of the model." }),
          ),
          remote: Type.Optional(
            Type.Object(
              {
                baseUrl: Type.Optional(Type.String()),
                apiKey: Type.Optional(Type.String()),
                headers: Type.Optional(Type.Record(Type.String(), Type.String())),
              },
              strict,
            ),
          ),
          store: Type.Optional(
            Type.Object(
              {
                path: Type.Optional(
                  Type.String({
                    description: "Index file; relative to the state directory; {agentId} is replaced.",
                  }),
                ),
                vector: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) }, strict)),
              },
              strict,
            ),
          ),
          chunking: Type.Optional(
            Type.Object(
              {
                tokens: Type.Optional(Type.Integer({ minimum: 16 })),
                overlap: Type.Optional(Type.Integer({ minimum: 0 })),
              },
              strict,
            ),
          ),
          sync: Type.Optional(
            Type.Object(
              {
                watch: Type.Optional(Type.Boolean()),
                watchDebounceMs: Type.Optional(Type.Integer({ minimum: 0 })),
              },
              strict,
            ),
          ),
          query: Type.Optional(
            Type.Object(
              {
                maxResults: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
                minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
                hybrid: Type.Optional(
                  Type.Object(
                    {
                      vectorWeight: Type.Optional(Type.Number({ minimum: 0 })),
                      textWeight: Type.Optional(Type.Number({ minimum: 0 })),
                      mmr: Type.Optional(
                        Type.Object(
                          {
                            enabled: Type.Boolean(),
                            lambda: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
                          },
                          strict,
                        ),
                      ),
                      temporalDecay: Type.Optional(
                        Type.Object(
                          {
                            enabled: Type.Boolean(),
                            halfLifeDays: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
                          },
                          strict,
                        ),
                      ),
                    },
                    strict,
                  ),
                ),
              },
              strict,
            ),
          ),
        },
        strict,
      ),
    ),
  },
  strict,
);

export type MemoryConfig = Static<typeof memoryConfigSchema>;
export type MemorySearchConfig = NonNullable<MemoryConfig["search"]>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Deep merge of plain objects; `over` wins key by key, arrays and scalars are replaced. */
export function mergeConfig<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value !== undefined) out[key] = mergeConfig(out[key], value);
  }
  return out as T;
}
