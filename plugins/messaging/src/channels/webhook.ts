import { createHmac } from "node:crypto";
import { ToolInputError } from "@clawtools/core";
import {
  isCredentialUrl,
  isSsrfBlockedError,
  type Lookup,
  registerSecret,
  type UrlPolicy,
} from "@clawtools/core/safety";
import { type HttpResponse, httpRequest, isHttpError } from "@clawtools/core/http";
import type { Channel, ChannelResult, MessageRequest, PreparedRequest } from "../channel.js";
import { unsupported } from "../channel.js";
import { ChannelApiError } from "../http.js";

export interface WebhookOptions {
  url: string;
  secret?: string;
  defaultTo?: string;
  allowPrivateNetwork?: boolean;
  retries?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  /** Largest attachment carried inline (base64 in the JSON body). */
  mediaMaxBytes: number;
  /** Tests pin DNS answers; production resolves with the system resolver. */
  lookup?: Lookup;
}

export const SIGNATURE_HEADER = "x-clawtools-signature";
export const TIMESTAMP_HEADER = "x-clawtools-timestamp";
export const IDEMPOTENCY_HEADER = "idempotency-key";

/** The signature a receiver recomputes: HMAC-SHA256 over `<timestamp>.<raw body>`, hex. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

const RETRYABLE = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;
/** The longest single wait, backoff or a receiver's `Retry-After`. */
const MAX_WAIT_MS = 60_000;

/**
 * A signed JSON POST to one configured URL, through core's URL policy (a loopback or private
 * URL is refused unless allowed), retried by core's HTTP client on network errors, 408, 425, 429
 * and 5xx (exponential backoff with jitter, or the receiver's `Retry-After`, each wait at most a
 * minute), always with the same idempotency key; a key already delivered is not sent again.
 */
export function createWebhookChannel(options: WebhookOptions): Channel {
  const policy: UrlPolicy = options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {};
  // a Slack or Discord webhook URL is a credential, like the signing secret
  if (isCredentialUrl(options.url)) registerSecret(options.url);
  registerSecret(options.secret);
  const delivered = new Map<string, ChannelResult>();

  function body(req: MessageRequest): string {
    if (req.action !== "send" && req.action !== "reply" && req.action !== "thread-reply")
      throw new ToolInputError(unsupported(req.action, "webhook"));
    if (req.media && req.media.data.length > options.mediaMaxBytes)
      throw new ToolInputError(
        `webhook cannot take ${req.media.filename} (${req.media.data.length} bytes): attachments over ${options.mediaMaxBytes} bytes are not sent inline.`,
      );
    return JSON.stringify({
      action: req.action,
      to: req.to,
      text: req.text ?? null,
      ...(req.caption ? { caption: req.caption } : {}),
      ...(req.media
        ? {
            media: {
              filename: req.media.filename,
              contentType: req.media.contentType,
              base64: req.media.data.toString("base64"),
            },
          }
        : {}),
      ...(req.threadId ? { threadId: req.threadId } : {}),
      ...(req.replyTo ? { replyTo: req.replyTo } : {}),
      ...(req.silent ? { silent: true } : {}),
      idempotencyKey: req.idempotencyKey,
    });
  }

  function headers(req: MessageRequest, payload: string, timestamp: string): Record<string, string> {
    return {
      "content-type": "application/json",
      [IDEMPOTENCY_HEADER]: req.idempotencyKey,
      [TIMESTAMP_HEADER]: timestamp,
      ...(options.secret ? { [SIGNATURE_HEADER]: signWebhook(options.secret, timestamp, payload) } : {}),
    };
  }

  return {
    id: "webhook",
    actions: new Set(["send", "reply", "thread-reply"]),
    capabilities: { media: { maxBytes: options.mediaMaxBytes, document: true }, threads: true },
    ...(options.defaultTo ? { defaultTarget: options.defaultTo } : {}),
    prepare(req): PreparedRequest[] {
      const payload = body(req);
      const h = headers(req, payload, "<unix seconds at send>");
      if (h[SIGNATURE_HEADER]) h[SIGNATURE_HEADER] = "sha256=<hmac of timestamp.body>";
      return [{ method: "POST", url: options.url, headers: h, json: JSON.parse(payload) }];
    },
    async execute(req, signal): Promise<ChannelResult> {
      const already = delivered.get(req.idempotencyKey);
      if (already) return { ...already, deduplicated: true };
      const payload = body(req);
      const retries = options.retries ?? 3;
      let response: HttpResponse;
      try {
        response = await httpRequest(options.url, {
          method: "POST",
          // every attempt carries the same idempotency key: the receiver can drop a repeat
          idempotent: true,
          policy,
          // signed afresh each attempt, so the timestamp is the time of that send
          headers: () => headers(req, payload, String(Math.floor(Date.now() / 1000))),
          body: payload,
          maxRedirects: 0,
          timeoutMs: options.timeoutMs ?? 15_000,
          maxBytes: 64 * 1024,
          retries,
          retryDelayMs: options.retryDelayMs ?? 500,
          maxRetryDelayMs: MAX_WAIT_MS,
          retryOn: RETRYABLE,
          throwOnStatus: false,
          label: "webhook",
          ...(signal ? { signal } : {}),
          ...(options.lookup ? { lookup: options.lookup } : {}),
        });
      } catch (error) {
        if (isSsrfBlockedError(error))
          throw new ToolInputError(
            `webhook URL refused: ${(error as Error).message} (set channels.webhook.allowPrivateNetwork to allow it).`,
          );
        if (signal?.aborted || !isHttpError(error)) throw error;
        throw new ChannelApiError("webhook", 0, `gave up after ${error.attempts} attempts: ${error.message}`);
      }
      const status = response.status;
      if (status < 200 || status >= 300) {
        const detail = `HTTP ${status}: ${response.text().slice(0, 200)}`;
        if (!RETRYABLE(status)) throw new ChannelApiError("webhook", status, detail);
        throw new ChannelApiError("webhook", 0, `gave up after ${response.attempts} attempts: ${detail}`);
      }
      let id: string | undefined;
      try {
        const parsed = JSON.parse(response.text()) as { id?: unknown; messageId?: unknown };
        id =
          parsed.messageId !== undefined
            ? String(parsed.messageId)
            : parsed.id !== undefined
              ? String(parsed.id)
              : undefined;
      } catch {
        // a receiver may answer with no body
      }
      const result = { messageId: id ?? req.idempotencyKey, attempts: response.attempts, status };
      delivered.set(req.idempotencyKey, result);
      if (delivered.size > 1000) delivered.delete(delivered.keys().next().value!);
      return result;
    },
  };
}
