import { type Static, Type } from "@clawtools/core";

const Secret = Type.String({ minLength: 1 });

/** `config.messaging` (OpenClaw's `tools.message.*` and `channels.*` where they exist). */
export const MessagingConfigSchema = Type.Object(
  {
    /** The channel used when a call names none and several are configured. */
    defaultChannel: Type.Optional(Type.String()),
    broadcast: Type.Optional(
      Type.Object({ enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    ),
    /** Largest attachment read from a path, URL or buffer (MB, default 20). */
    mediaMaxMb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
    /** Lets `media` URLs reach loopback and private addresses (off: the URL policy of web_fetch). */
    allowPrivateNetwork: Type.Optional(Type.Boolean()),
    channels: Type.Optional(
      Type.Object(
        {
          /** An append-only log under the state directory; a channel only when configured (`inbox: {}`). */
          inbox: Type.Optional(
            Type.Object(
              { enabled: Type.Optional(Type.Boolean()), defaultTo: Type.Optional(Type.String()) },
              { additionalProperties: false },
            ),
          ),
          webhook: Type.Optional(
            Type.Object(
              {
                url: Type.String(),
                /** HMAC-SHA256 key for the `X-Clawtools-Signature` header. */
                secret: Type.Optional(Secret),
                defaultTo: Type.Optional(Type.String()),
                /** Allow a loopback or private webhook URL (refused by default). */
                allowPrivateNetwork: Type.Optional(Type.Boolean()),
                retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
                /** First retry delay, doubled each time (ms, default 500). */
                retryDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
                timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
              },
              { additionalProperties: false },
            ),
          ),
          telegram: Type.Optional(
            Type.Object(
              {
                botToken: Secret,
                baseUrl: Type.Optional(Type.String()),
                defaultTo: Type.Optional(Type.String()),
              },
              { additionalProperties: false },
            ),
          ),
          slack: Type.Optional(
            Type.Object(
              {
                token: Secret,
                baseUrl: Type.Optional(Type.String()),
                defaultTo: Type.Optional(Type.String()),
              },
              { additionalProperties: false },
            ),
          ),
          discord: Type.Optional(
            Type.Object(
              {
                botToken: Secret,
                baseUrl: Type.Optional(Type.String()),
                defaultTo: Type.Optional(Type.String()),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type MessagingConfig = Static<typeof MessagingConfigSchema>;
export type ChannelsConfig = NonNullable<MessagingConfig["channels"]>;
