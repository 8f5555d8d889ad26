import { type Static, Type } from "@clawtools/core";

/**
 * `config.fs`: the files section's configuration (OpenClaw's `tools.fs.*` where a key exists).
 * The same keys may be passed to `createFsPlugin(options)` in code, where they win key by key.
 */
export const fsConfigSchema = Type.Object(
  {
    workspaceOnly: Type.Optional(
      Type.Boolean({ description: "Refuse paths outside the workspace root (default true)." }),
    ),
    root: Type.Optional(Type.String({ description: "The files root (default: the workspace)." })),
    readMaxBytes: Type.Optional(
      Type.Integer({
        minimum: 1024,
        maximum: 512 * 1024,
        description: "Budget of one read call in bytes (default 32768, OpenClaw 9.6's; 1 KB..512 KB).",
      }),
    ),
    autoResizeImages: Type.Optional(
      Type.Boolean({ description: "Downscale images read as attachments (default true)." }),
    ),
    imageMaxDimensionPx: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 8000,
        description: "Longest image side after downscaling, in pixels (default 1200, as OpenClaw).",
      }),
    ),
    claudeCodeAliases: Type.Optional(
      Type.Boolean({ description: "edit also accepts file_path / old_string / new_string (default true)." }),
    ),
    ripgrep: Type.Optional(
      Type.Union([Type.String(), Type.Literal(false)], {
        description: "ripgrep binary for grep, or false for the built-in engine only.",
      }),
    ),
    regexTimeoutMs: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 600_000,
        description: "Deadline of the built-in grep engine's regex worker (default 10000).",
      }),
    ),
  },
  { additionalProperties: false },
);

export type FsConfig = Static<typeof fsConfigSchema>;

export const FS_CONFIG_KEYS = Object.keys(fsConfigSchema.properties) as Array<keyof FsConfig>;

/** The configurable subset of an options object (the rest, such as `bridge`, is code-only). */
export function configPart(options: object): Partial<FsConfig> {
  const source = options as Record<string, unknown>;
  return Object.fromEntries(
    FS_CONFIG_KEYS.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]),
  ) as Partial<FsConfig>;
}
