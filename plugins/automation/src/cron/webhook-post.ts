import { isSsrfBlockedError } from "@clawtools/core/safety";
import { httpRequest, isHttpError } from "@clawtools/core/http";
import type { ExecutorOptions } from "./executor-types.js";

/** The executor options a webhook delivery reads. */
export type WebhookOptions = Pick<
  ExecutorOptions,
  "webhookPolicy" | "webhookTimeoutMs" | "webhookAttempts" | "webhookRetryDelayMs"
>;

/**
 * POSTs JSON through core's HTTP helper and URL policy: network errors, timeouts, 429 and 5xx
 * are retried with backoff (doubling from `webhookRetryDelayMs`), a `Retry-After` is honoured
 * (capped at 30 s); a refused address and any other 4xx are not retried. Every attempt carries
 * the same `idempotency-key` (job and the slot it fires, see runSlot), so a receiver can drop a
 * repeat, a run again after a crash included. Errors name
 * the target's origin only: a webhook's path and query often hold its secret.
 */
export async function postCronWebhook(
  options: WebhookOptions,
  url: string,
  body: Record<string, unknown>,
  idempotencyKey = `cron:${String(body.jobId)}:${String(body.runAtMs)}`,
): Promise<void> {
  let target: string;
  try {
    target = new URL(url).origin;
  } catch {
    throw new Error("webhook delivery.to is not a valid URL");
  }
  try {
    await httpRequest(url, {
      method: "POST",
      json: body,
      headers: {
        "user-agent": "clawtools-cron",
        "idempotency-key": idempotencyKey,
      },
      idempotent: true,
      policy: options.webhookPolicy ?? {},
      timeoutMs: options.webhookTimeoutMs ?? 10_000,
      maxRedirects: 0,
      maxBytes: 64_000,
      retries: Math.max(1, options.webhookAttempts ?? 3) - 1,
      retryDelayMs: options.webhookRetryDelayMs ?? 1_000,
      label: `webhook ${target}`,
    });
  } catch (error) {
    if (isSsrfBlockedError(error)) throw new Error(`webhook ${target} refused: ${error.message}`);
    if (isHttpError(error) && error.kind === "status")
      throw new Error(
        `webhook ${target} answered HTTP ${error.status}${error.attempts > 1 ? ` (${error.attempts} attempts)` : ""}`,
      );
    throw error;
  }
}
