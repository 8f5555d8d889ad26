import { formatSize, type TruncationResult, Type } from "@clawtools/core";
import type { FsToolOptions } from "../fs-env.js";

// read's parameters, options and details: the tool's public shape (the tool itself: read.ts).

export const readSchema = Type.Object(
  {
    path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
    offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
    limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
    cursor: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          "Character position within the start line (0-based), to continue a line longer than one page",
      }),
    ),
    optional: Type.Optional(
      Type.Boolean({ description: "When true, a missing file is a plain answer instead of an error" }),
    ),
  },
  { additionalProperties: false },
);

export interface ReadDetails {
  truncation?: TruncationResult;
  /** Where the next page starts, when the output was cut (OpenClaw's continuation). */
  continuation?:
    | { kind: "line"; offset: number; limit?: number }
    | { kind: "cursor"; offset: number; cursor: number; limit?: number };
  /** `optional: true` and the file does not exist. */
  status?: "not_found";
  path?: string;
  optional?: true;
}

export interface ReadToolOptions extends FsToolOptions {
  /** Downscale images over `imageMaxDimensionPx` or 4.5 MB (default true). */
  autoResizeImages?: boolean;
  /** Longest image side after downscaling (default 1200 px, OpenClaw's DEFAULT_IMAGE_MAX_DIMENSION_PX). */
  imageMaxDimensionPx?: number;
  /** Budget of one read call in bytes (default 32 KB, OpenClaw 9.6's). */
  readMaxBytes?: number;
}

export const readDescription = (maxBytes: number) =>
  `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, one call returns up to ${formatSize(maxBytes).replace(/\.0(?=KB)/, "")} of text; a longer file ends with a notice naming the offset (and the cursor, inside a long line) to continue from. Use offset/limit for large files. When you need the full file, continue as the notice says until complete.`;
