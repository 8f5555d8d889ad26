import {
  type AgentTool,
  jsonResult,
  optionalStringEnum,
  type ToolContext,
  ToolInputError,
  Type,
  wrapExternalContent,
} from "@clawtools/core";
import { TtlCache } from "../cache.js";
import { type ExtractMode, extractHtml } from "../extract/html.js";
import { stripInvisibleUnicode } from "../extract/visibility.js";
import { guardedFetch } from "../ssrf/fetch-guard.js";
import { type Lookup, policyKey, type SsrfPolicy } from "../ssrf/policy.js";

export const webFetchSchema = Type.Object({
  url: Type.String({ description: "HTTP or HTTPS URL to fetch." }),
  extractMode: optionalStringEnum(["markdown", "text"] as const, {
    description: 'Extraction mode ("markdown" or "text").',
    default: "markdown",
  }),
  maxChars: Type.Optional(
    Type.Number({ description: "Maximum characters to return (truncates when exceeded).", minimum: 100 }),
  ),
});

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
  fetchedAt: string;
  tookMs: number;
  text: string;
  warning?: string;
  cached?: boolean;
}

export interface WebFetchOptions {
  /** Default 50,000. */
  maxChars?: number;
  /** Bytes read from the response at most (default 2,000,000, clamped 32,000..10,000,000). */
  maxResponseBytes?: number;
  maxRedirects?: number;
  timeoutSeconds?: number;
  /** 0 disables the cache (default 15). */
  cacheTtlMinutes?: number;
  userAgent?: string;
  /** Widens the SSRF policy; every field is off by default. */
  ssrfPolicy?: SsrfPolicy;
  /** DNS resolver (tests); connections are pinned to what it returns. */
  lookup?: Lookup;
}

const DEFAULT_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36";

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().toLowerCase();
  try {
    return new TextDecoder(charset && charset !== "utf8" ? charset : "utf-8").decode(body);
  } catch {
    return body.toString("utf8");
  }
}

function extract(raw: string, contentType: string, mode: ExtractMode) {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "text/markdown")
    return { text: stripInvisibleUnicode(raw), extractor: "cf-markdown" as const };
  if (type.includes("json")) {
    try {
      return { text: JSON.stringify(JSON.parse(raw), null, 2), extractor: "json" as const };
    } catch {
      return { text: raw, extractor: "raw" as const };
    }
  }
  if (type.includes("html") || /^\s*<(!doctype html|html)/i.test(raw)) return extractHtml(raw, mode);
  return { text: stripInvisibleUnicode(raw), extractor: "raw" as const };
}

/** Cuts text so that the wrapped result fits `maxChars` (the wrapper's own size included). */
function wrapWithin(
  text: string,
  maxChars: number,
): { wrapped: string; truncated: boolean; warning?: string } {
  let wrapped = wrapExternalContent(text, { source: "Web Fetch", includeWarning: true });
  if (wrapped.length <= maxChars) return { wrapped, truncated: false };
  const overhead = wrapped.length - text.length;
  if (overhead < maxChars) {
    return {
      wrapped: wrapExternalContent(text.slice(0, maxChars - overhead), {
        source: "Web Fetch",
        includeWarning: true,
      }),
      truncated: true,
    };
  }
  // the notice does not fit: keep the markers, drop the banner
  const bare = wrapExternalContent(text, { source: "Web Fetch" });
  const bareOverhead = bare.length - text.length;
  wrapped = wrapExternalContent(text.slice(0, Math.max(0, maxChars - bareOverhead)), { source: "Web Fetch" });
  return {
    wrapped,
    truncated: true,
    warning: "Security notice dropped to fit maxChars; the content is still untrusted.",
  };
}

export function createWebFetchTool(
  _ctx: ToolContext = {},
  options: WebFetchOptions = {},
): AgentTool<typeof webFetchSchema, WebFetchResult> {
  const cache = new TtlCache<WebFetchResult>((options.cacheTtlMinutes ?? 15) * 60_000, 100);
  const maxBytes = Math.min(10_000_000, Math.max(32_000, options.maxResponseBytes ?? 2_000_000));
  const policy = options.ssrfPolicy ?? {};
  return {
    name: "web_fetch",
    label: "web_fetch",
    description:
      "Fetch and extract readable content from a URL (HTML → markdown/text). Use for lightweight page access without browser automation. Private, internal and special-use addresses are refused.",
    parameters: webFetchSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      let url: URL;
      try {
        url = new URL(params.url);
      } catch {
        throw new ToolInputError(`Invalid URL: ${params.url}`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new ToolInputError("Invalid URL: must be http or https");
      const mode: ExtractMode = params.extractMode === "text" ? "text" : "markdown";
      const maxChars = Math.max(100, Math.floor(params.maxChars ?? options.maxChars ?? 50_000));
      const key = `${url.href}|${mode}|${maxChars}|${policyKey(policy)}`.toLowerCase();
      const hit = cache.get(key);
      if (hit) return jsonResult({ ...hit, cached: true });
      const started = Date.now();
      const response = await guardedFetch(url.href, {
        policy,
        maxBytes,
        ...(options.maxRedirects !== undefined ? { maxRedirects: options.maxRedirects } : {}),
        timeoutMs: (options.timeoutSeconds ?? 30) * 1000,
        ...(signal ? { signal } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        headers: {
          accept: "text/markdown, text/html;q=0.9, */*;q=0.1",
          "accept-language": "en-US,en;q=0.9",
          "user-agent": options.userAgent ?? DEFAULT_UA,
        },
      });
      const contentType = response.headers["content-type"] ?? "application/octet-stream";
      const raw = decode(response.body, contentType);
      if (response.status < 200 || response.status >= 300) {
        const detail = wrapExternalContent(
          extract(raw.slice(0, 64_000), contentType, "text").text.slice(0, 4_000),
          { source: "Web Fetch" },
        );
        throw new Error(`Web fetch failed (${response.status}): ${detail}`);
      }
      const extracted = extract(raw, contentType, mode);
      const { wrapped, truncated, warning } = wrapWithin(extracted.text, maxChars);
      const title =
        "title" in extracted && extracted.title
          ? wrapExternalContent(extracted.title, { source: "Web Fetch" })
          : undefined;
      const result: WebFetchResult = {
        url: params.url,
        finalUrl: response.finalUrl,
        status: response.status,
        contentType: contentType.split(";")[0]!.trim(),
        ...(title ? { title } : {}),
        extractMode: mode,
        extractor: extracted.extractor,
        externalContent: { untrusted: true, source: "web_fetch", wrapped: true },
        truncated: truncated || response.truncated,
        length: extracted.text.length,
        rawLength: response.body.length,
        wrappedLength: wrapped.length,
        fetchedAt: new Date().toISOString(),
        tookMs: Date.now() - started,
        text: wrapped,
        ...(response.truncated
          ? { warning: `Response body cut at ${maxBytes} bytes.` }
          : warning
            ? { warning }
            : {}),
      };
      cache.set(key, result);
      return jsonResult(result);
    },
  };
}
