import { createHmac } from "node:crypto";
import {
  guardedFetch,
  isCredentialUrl,
  isSsrfBlockedError,
  type Lookup,
  registerSecret,
  ToolInputError,
  type UrlPolicy,
} from "@clawtools/core";
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

/**
 * A signed JSON POST to one configured URL, through core's URL policy (a loopback or private
 * URL is refused unless allowed), retried with exponential backoff on network errors, 408, 425,
 * 429 and 5xx, always with the same idempotency key; a key already delivered is not sent again.
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
      let lastError = "";
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (attempt > 0) {
          const delay = (options.retryDelayMs ?? 500) * 2 ** (attempt - 1);
          await new Promise((resolve) => setTimeout(resolve, delay));
          if (signal?.aborted) throw signal.reason ?? new Error("Message send aborted");
        }
        const timestamp = String(Math.floor(Date.now() / 1000));
        try {
          const response = await guardedFetch(options.url, {
            method: "POST",
            policy,
            headers: headers(req, payload, timestamp),
            body: payload,
            maxRedirects: 0,
            timeoutMs: options.timeoutMs ?? 15_000,
            maxBytes: 64 * 1024,
            ...(signal ? { signal } : {}),
            ...(options.lookup ? { lookup: options.lookup } : {}),
          });
          if (response.status >= 200 && response.status < 300) {
            let id: string | undefined;
            try {
              const parsed = JSON.parse(response.body.toString("utf8")) as {
                id?: unknown;
                messageId?: unknown;
              };
              id =
                parsed.messageId !== undefined
                  ? String(parsed.messageId)
                  : parsed.id !== undefined
                    ? String(parsed.id)
                    : undefined;
            } catch {
              // a receiver may answer with no body
            }
            const result = {
              messageId: id ?? req.idempotencyKey,
              attempts: attempt + 1,
              status: response.status,
            };
            delivered.set(req.idempotencyKey, result);
            if (delivered.size > 1000) delivered.delete(delivered.keys().next().value!);
            return result;
          }
          lastError = `HTTP ${response.status}: ${response.body.toString("utf8").slice(0, 200)}`;
          if (!RETRYABLE(response.status)) throw new ChannelApiError("webhook", response.status, lastError);
        } catch (error) {
          if (error instanceof ChannelApiError) throw error;
          if (isSsrfBlockedError(error))
            throw new ToolInputError(
              `webhook URL refused: ${(error as Error).message} (set channels.webhook.allowPrivateNetwork to allow it).`,
            );
          if (signal?.aborted) throw error;
          lastError = (error as Error).message;
        }
      }
      throw new ChannelApiError("webhook", 0, `gave up after ${retries + 1} attempts: ${lastError}`);
    },
  };
}
