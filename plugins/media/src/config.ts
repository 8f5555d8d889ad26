import { type Static, Type } from "@clawtools/core";

const Key = Type.String({ minLength: 1 });

/** `config.media` (OpenClaw's `messages.tts.*` and `agents.defaults.imageModel` where they exist). */
export const MediaConfigSchema = Type.Object(
  {
    tts: Type.Optional(
      Type.Object(
        {
          /** Providers in fallback order (default: the configured ones, then espeak). */
          providers: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
          timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
          /** Audio files older than this are removed (default 24 hours). */
          retainHours: Type.Optional(Type.Number({ minimum: 0 })),
          espeak: Type.Optional(
            Type.Object(
              {
                voice: Type.Optional(Type.String()),
                rate: Type.Optional(Type.Integer({ minimum: 80, maximum: 500 })),
              },
              { additionalProperties: false },
            ),
          ),
          cli: Type.Optional(
            Type.Object(
              {
                command: Type.String({ minLength: 1 }),
                args: Type.Array(Type.String()),
                outputFormat: Type.Optional(
                  Type.Union([Type.Literal("wav"), Type.Literal("mp3"), Type.Literal("opus")]),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          openai: Type.Optional(
            Type.Object(
              {
                apiKey: Type.Optional(Key),
                baseUrl: Type.Optional(Type.String()),
                model: Type.Optional(Type.String()),
                voice: Type.Optional(Type.String()),
              },
              { additionalProperties: false },
            ),
          ),
          elevenlabs: Type.Optional(
            Type.Object(
              {
                apiKey: Type.Optional(Key),
                baseUrl: Type.Optional(Type.String()),
                voiceId: Type.Optional(Type.String()),
                modelId: Type.Optional(Type.String()),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    image: Type.Optional(
      Type.Object(
        {
          /** `provider/model`, e.g. `openai/gpt-4o-mini`, `anthropic/claude-sonnet-4-5`, `google/gemini-2.5-flash`. */
          model: Type.Optional(Type.String({ minLength: 3 })),
          /** Wire format for a model pi-ai does not know (default from the provider name). */
          api: Type.Optional(
            Type.Union([
              Type.Literal("openai-completions"),
              Type.Literal("anthropic-messages"),
              Type.Literal("google-generative-ai"),
            ]),
          ),
          baseUrl: Type.Optional(Type.String()),
          apiKey: Type.Optional(Key),
          maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
          /** Longest side sent to the model, in pixels (default 1568). */
          maxPixels: Type.Optional(Type.Integer({ minimum: 64 })),
          /** Lets http(s) images come from loopback and private addresses. */
          allowPrivateNetwork: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    /** Largest image read (MB, default 20); the call's `maxBytesMb` can lower it. */
    mediaMaxMb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 200 })),
  },
  { additionalProperties: false },
);

export type MediaConfig = Static<typeof MediaConfigSchema>;
export type TtsConfig = NonNullable<MediaConfig["tts"]>;
export type ImageConfig = NonNullable<MediaConfig["image"]>;
