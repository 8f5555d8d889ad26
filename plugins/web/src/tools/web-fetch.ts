import { STATUS_CODES } from "node:http";
import { type AgentTool, jsonResult, type ToolContext, ToolInputError } from "@clawtools/core";
import { guardedFetch, isSsrfBlockedError, type Lookup, policyKey } from "@clawtools/core/safety";
import { TtlCache } from "../cache.js";
import { readWebConfig, urlPolicyOf, type WebFetchConfig } from "../config.js";
import { decodeBody } from "../extract/charset.js";
import type { ExtractMode } from "../extract/html.js";
import { BARE, extract, metadataBudget, wrapWithin } from "./web-fetch-content.js";
import { type WebFetchResult, webFetchSchema } from "./web-fetch-schema.js";
import { spillToFile } from "./web-fetch-spill.js";

/** How to let web_fetch reach private addresses, added to the URL policy's refusal. */
export const PRIVATE_NETWORK_HINT =
  "To fetch loopback or private addresses, start clawtools serve with --allow-private-network, or set web.fetch.allowPrivateNetwork: true in the configuration.";

/** A refusal by the URL policy says how to lift it; other errors pass unchanged. */
function explainRefusal(error: unknown): never {
  if (isSsrfBlockedError(error))
    throw new Error(`${(error as Error).message}. ${PRIVATE_NETWORK_HINT}`, { cause: error });
  throw error;
}

export { type WebFetchResult, webFetchSchema } from "./web-fetch-schema.js";

/** `config.web.fetch` plus what only code can give. */
export interface WebFetchOptions extends WebFetchConfig {
  /** DNS resolver (tests); connections are pinned to what it returns. */
  lookup?: Lookup;
}

const DEFAULT_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36";
/** OpenClaw 9.6's default maxChars, and the cap on it unless `maxCharsCap` raises it. */
export const DEFAULT_MAX_CHARS = 20_000;
const ERROR_MAX_CHARS = 4_000;
const ERROR_MAX_BYTES = 64_000;
const SPILL_MAX_CHARS = 2_000_000;
/** OpenClaw 9.6's default download cap (fetch.maxResponseBytes), clamped to 32,000..10,000,000. */
export const DEFAULT_MAX_RESPONSE_BYTES = 750_000;

export { wrapWithin } from "./web-fetch-content.js";

export function createWebFetchTool(
  ctx: ToolContext = {},
  options: WebFetchOptions = {},
): AgentTool<typeof webFetchSchema, WebFetchResult> {
  const { lookup, ...inCode } = options;
  const config = readWebConfig(ctx, { fetch: inCode }).fetch ?? {};
  const cache = new TtlCache<WebFetchResult>((config.cacheTtlMinutes ?? 15) * 60_000, 100);
  const maxBytes = Math.min(
    10_000_000,
    Math.max(32_000, Math.floor(config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES)),
  );
  // OpenClaw 9.6: 20,000 characters by default, and no more than that unless the cap is raised
  const maxCharsCap = Math.max(100, Math.floor(config.maxCharsCap ?? DEFAULT_MAX_CHARS));
  const policy = urlPolicyOf(config);
  return {
    name: "web_fetch",
    // a long call: MCP clients may run it as a task
    taskSupport: "optional",
    label: "web_fetch",
    description:
      "Fetch and extract readable content from a URL (HTML → markdown/text). Use for lightweight page access without browser automation. Private, internal and special-use addresses are refused.",
    parameters: webFetchSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      const requested = params.url.trim().replace(/^(https?:\/\/)\s+/i, "$1");
      let url: URL;
      try {
        url = new URL(requested);
      } catch {
        throw new ToolInputError(`Invalid URL: ${params.url}`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new ToolInputError("Invalid URL: must be http or https");
      const mode: ExtractMode = params.extractMode === "text" ? "text" : "markdown";
      const maxChars = Math.min(
        maxCharsCap,
        Math.max(100, Math.floor(params.maxChars ?? config.maxChars ?? DEFAULT_MAX_CHARS)),
      );
      // the URL's case matters outside the host (paths, queries); new URL already lowercased the host
      const key = `${url.href}|${mode}|${maxChars}|${policyKey(policy)}`;
      const hit = cache.get(key);
      if (hit) return jsonResult({ ...hit, cached: true });
      const started = Date.now();
      const response = await guardedFetch(url.href, {
        policy,
        maxBytes,
        ...(config.maxRedirects !== undefined ? { maxRedirects: config.maxRedirects } : {}),
        timeoutMs: (config.timeoutSeconds ?? 30) * 1000,
        ...(signal ? { signal } : {}),
        ...(lookup ? { lookup } : {}),
        headers: {
          accept: "text/markdown, text/html;q=0.9, */*;q=0.1",
          "accept-language": "en-US,en;q=0.9",
          "user-agent": config.userAgent ?? DEFAULT_UA,
        },
      }).catch(explainRefusal);
      const contentType = response.headers["content-type"] ?? "application/octet-stream";
      if (response.status < 200 || response.status >= 300) {
        const raw = decodeBody(response.body.subarray(0, ERROR_MAX_BYTES), contentType);
        const detail = (await extract(raw, contentType, "text", response.finalUrl)).text
          .trim()
          .slice(0, ERROR_MAX_CHARS);
        const { wrapped } = wrapWithin(detail || (STATUS_CODES[response.status] ?? ""), ERROR_MAX_CHARS);
        throw new Error(`Web fetch failed (${response.status}): ${wrapped}`);
      }
      const raw = decodeBody(response.body, contentType);
      const extracted = await extract(raw, contentType, mode, response.finalUrl);
      // OpenClaw 9.6: the warning, then the title, wrapped within their budget; the body gets the rest
      const meta = metadataBudget(maxChars);
      const cutWarning = meta.wrap(
        response.truncated ? `Response body incomplete after ${response.body.length} bytes.` : undefined,
      );
      const title = meta.wrap("title" in extracted ? extracted.title : undefined);
      const bodyMax = maxChars - meta.used;
      let { wrapped, truncated, warning } = wrapWithin(extracted.text, bodyMax);
      let spill: WebFetchResult["spill"];
      let text = wrapped;
      if (truncated) {
        const content = extracted.text.slice(0, SPILL_MAX_CHARS);
        const file = await spillToFile(ctx.stateDir, content);
        const note = response.truncated
          ? " Spilled available content from truncated response."
          : content.length < extracted.text.length
            ? ` Spilled first ${content.length} chars.`
            : "";
        const footer = `\n\n[Showing truncated web_fetch content. Full output: ${file}.${note}]`;
        const compact = `[Full output: ${file}]`;
        // (the footer goes beside the wrapped text only when the markers fit too: 9.6 cuts them)
        if (footer.length + BARE <= bodyMax) {
          ({ wrapped, warning } = wrapWithin(extracted.text, bodyMax - footer.length));
          text = `${wrapped}${footer}`;
        } else if (compact.length <= bodyMax) {
          text = compact;
        }
        spill = {
          path: file,
          chars: content.length,
          ...(response.truncated || content.length < extracted.text.length
            ? { truncated: true as const }
            : {}),
        };
      }
      const result: WebFetchResult = {
        url: params.url,
        finalUrl: response.finalUrl,
        status: response.status,
        contentType: contentType.split(";")[0]!.trim(),
        ...(title ? { title } : {}),
        extractMode: mode,
        extractor: extracted.extractor,
        externalContent: { untrusted: true, source: "web_fetch", wrapped: true },
        truncated: truncated || response.truncated || meta.truncated,
        length: extracted.text.length,
        rawLength: response.body.length,
        wrappedLength: text.length,
        ...(spill ? { spill } : {}),
        fetchedAt: new Date().toISOString(),
        tookMs: Date.now() - started,
        text,
        ...(cutWarning ? { warning: cutWarning } : warning ? { warning } : {}),
      };
      cache.set(key, result);
      return jsonResult(result);
    },
  };
}
