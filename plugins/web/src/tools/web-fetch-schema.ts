import { optionalStringEnum, Type } from "@clawtools/core";
import type { ExtractMode } from "../extract/html.js";

// What web_fetch takes and what it answers: its parameter schema and result.

export const webFetchSchema = Type.Object(
  {
    url: Type.String({ description: "HTTP or HTTPS URL to fetch." }),
    extractMode: optionalStringEnum(["markdown", "text"] as const, {
      description: 'Extraction mode ("markdown" or "text").',
      default: "markdown",
    }),
    maxChars: Type.Optional(
      Type.Number({
        description: "Maximum characters to return (truncates when exceeded; the full text goes to a file).",
        minimum: 100,
      }),
    ),
  },
  { additionalProperties: false },
);

export interface WebFetchResult {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  title?: string;
  extractMode: ExtractMode;
  extractor: "readability" | "raw-html" | "cf-markdown" | "json" | "raw";
  externalContent: { untrusted: true; source: "web_fetch"; wrapped: true };
  truncated: boolean;
  length: number;
  rawLength: number;
  wrappedLength: number;
  /** Where the whole text went when it did not fit `maxChars` (OpenClaw's `spill`). */
  spill?: { path: string; chars: number; truncated?: true };
  fetchedAt: string;
  tookMs: number;
  text: string;
  warning?: string;
  cached?: boolean;
}
