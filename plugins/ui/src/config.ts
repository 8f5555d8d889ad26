import { type Static, Type } from "@clawtools/core";

/** `config.ui`: the browser and canvas of the ui section (OpenClaw's `browser.*` keys where they exist). */
export const UiConfigSchema = Type.Object(
  {
    browser: Type.Optional(
      Type.Object(
        {
          /** Off turns the browser tool into OpenClaw's "Browser control is disabled" answer. */
          enabled: Type.Optional(Type.Boolean()),
          /** Chromium to run; else CHROMIUM_PATH, then the usual locations. */
          executablePath: Type.Optional(Type.String()),
          headless: Type.Optional(Type.Boolean()),
          /** Extra Chromium command-line switches. */
          extraArgs: Type.Optional(Type.Array(Type.String())),
          /** CDP endpoint of a Chromium the user started, for `profile: "user"`. */
          cdpUrl: Type.Optional(Type.String()),
          /** `act` kind `evaluate` and `wait` with `fn` (OpenClaw: browser.evaluateEnabled, default on). */
          evaluateEnabled: Type.Optional(Type.Boolean()),
          /** Let pages reach loopback and private addresses (off: the URL policy of web_fetch). */
          allowPrivateNetwork: Type.Optional(Type.Boolean()),
          /** Hostnames (exact or `*.example.com`) allowed even when they resolve to private addresses. */
          allowedHostnames: Type.Optional(Type.Array(Type.String())),
          /** Milliseconds an action waits for its element (default 8,000). */
          actionTimeoutMs: Type.Optional(Type.Integer({ minimum: 100 })),
          /**
           * Where the V8 code cache of playwright-core's bundles is kept (default
           * `$XDG_CACHE_HOME/clawtools/code-cache`); `false` compiles them on every start.
           */
          codeCacheDir: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Literal(false)])),
        },
        { additionalProperties: false },
      ),
    ),
    canvas: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          /** Canvas viewport when `present` names no size (default 1280×720). */
          width: Type.Optional(Type.Integer({ minimum: 1, maximum: 8192 })),
          height: Type.Optional(Type.Integer({ minimum: 1, maximum: 8192 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type UiConfig = Static<typeof UiConfigSchema>;
export type BrowserConfig = NonNullable<UiConfig["browser"]>;
