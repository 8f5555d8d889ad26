import { isSsrfBlockedError } from "../safety/url/policy.js";
import type { Lookup, UrlPolicy } from "../safety/url/policy.js";
import { type Clock, systemClock } from "../time/clock.js";
import { delay } from "../time/delay.js";
import { backoffDelay } from "./backoff.js";
import { HttpError, type HttpErrorKind } from "./http-error.js";
import { excerptOf, secretsOf, targetOf } from "./redaction.js";
import { parseRetryAfter } from "./retry-after.js";
import { encodeForm, exchange, isTimeout, type RawAnswer } from "./transport.js";

export interface HttpRequestOptions {
  /** Default GET. */
  method?: string;
  /** Fixed headers, or a function of the attempt (1-based) for headers that change per send (a signature timestamp). */
  headers?: Record<string, string> | ((attempt: number) => Record<string, string>);
  body?: string | Uint8Array | FormData;
  /** Sent as JSON (sets `content-type`); wins over `body`. */
  json?: unknown;
  /** Set where the URL policy applies (SSRF guard): checked, pinned DNS, redirects re-checked. */
  policy?: UrlPolicy;
  lookup?: Lookup;
  /** With a policy only (default 3). */
  maxRedirects?: number;
  /** Bytes of the answer read (default 5,000,000). */
  maxBytes?: number;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** The whole call, retries and waits included; no wait is started that would end past it. */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** Retries after the first attempt (default 2). */
  retries?: number;
  /** First backoff, doubled each retry, with jitter (default 500 ms). */
  retryDelayMs?: number;
  /** Cap for one wait, backoff or `Retry-After` (default 30 s). */
  maxRetryDelayMs?: number;
  /** The caller says a retry is safe (a POST with an idempotency key); default: only GET, HEAD, OPTIONS, PUT, DELETE. */
  idempotent?: boolean;
  /** Which statuses are retried (default 408, 425, 429, 500, 502, 503, 504). */
  retryOn?: (status: number) => boolean;
  /** Default true: an answer outside 2xx (after retries) throws an HttpError; false returns it. */
  throwOnStatus?: boolean;
  /** Names the endpoint in errors (default the URL's origin). */
  label?: string;
  /** Times the deadline and the waits between attempts (default `systemClock`; tests pass a FakeClock). */
  clock?: Clock;
  /** Values to take out of errors besides the registered secrets and the request's own credentials. */
  secrets?: string[];
}

export interface HttpResponse extends RawAnswer {
  /** Requests sent, retries included. */
  attempts: number;
  text(): string;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const RETRY_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * One request to a configured endpoint, retried when that is safe: network errors, timeouts and
 * retryable statuses, with exponential backoff and jitter, honouring `Retry-After` (seconds or
 * HTTP-date, capped). Abortable at any point, waits included; errors are {@link HttpError}s.
 */
export async function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpResponse> {
  const method = (options.method ?? "GET").toUpperCase();
  const retries = IDEMPOTENT.has(method) || options.idempotent ? Math.max(0, options.retries ?? 2) : 0;
  const retryOn = options.retryOn ?? ((s: number) => RETRY_STATUSES.has(s));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxWait = options.maxRetryDelayMs ?? 30_000;
  const clock = options.clock ?? systemClock;
  const deadline =
    options.deadlineMs !== undefined ? clock.now() + options.deadlineMs : Number.POSITIVE_INFINITY;
  const target = options.label ?? targetOf(url);
  let body: string | Uint8Array | undefined;
  const extraHeaders: Record<string, string> = {};
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    extraHeaders["content-type"] = "application/json";
  } else if (options.body instanceof FormData) {
    const encoded = await encodeForm(options.body);
    body = encoded.body;
    extraHeaders["content-type"] = encoded.contentType;
  } else body = options.body;
  let hidden = secretsOf(url, {}, options.secrets);
  const fail = (message: string, kind: HttpErrorKind, attempts: number, more: Partial<HttpError> = {}) =>
    new HttpError(excerptOf(message, hidden, 2_000), { kind, status: 0, target, attempts, ...more });

  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    const left = deadline - clock.now();
    if (left <= 0) throw fail(`${target}: no answer within ${options.deadlineMs} ms`, "timeout", attempt - 1);
    const headers = {
      ...(typeof options.headers === "function" ? options.headers(attempt) : options.headers),
      ...extraHeaders,
    };
    hidden = secretsOf(url, headers, options.secrets);
    let answer: RawAnswer | undefined;
    let failure: HttpError;
    try {
      answer = await exchange({
        url,
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        timeoutMs: Math.max(1, Math.min(timeoutMs, left)),
        maxBytes: options.maxBytes ?? 5_000_000,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.policy ? { policy: options.policy } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(options.maxRedirects !== undefined ? { maxRedirects: options.maxRedirects } : {}),
      });
    } catch (error) {
      // the caller's abort and the URL policy's refusal are answers, not failures to retry
      if (options.signal?.aborted) throw options.signal.reason;
      if (isSsrfBlockedError(error)) throw error;
      const code = (error as { code?: string }).code;
      failure = isTimeout(error)
        ? fail(`${target}: no answer within ${Math.min(timeoutMs, left)} ms`, "timeout", attempt)
        : fail(
            `${target} request failed: ${(error as Error).message}`,
            "network",
            attempt,
            code ? { code } : {},
          );
    }
    let wait: number | undefined;
    if (answer) {
      const { status } = answer;
      const text = () => answer!.body.toString("utf8");
      if ((status >= 200 && status < 300) || (!retryOn(status) && options.throwOnStatus === false))
        return { ...answer, attempts: attempt, text };
      const bodyExcerpt = excerptOf(text(), hidden, 300);
      failure = new HttpError(`${target} answered HTTP ${status}${bodyExcerpt ? `: ${bodyExcerpt}` : ""}`, {
        kind: "status",
        status,
        target,
        bodyExcerpt,
        attempts: attempt,
      });
      if (!retryOn(status) || attempt > retries) {
        if (options.throwOnStatus === false) return { ...answer, attempts: attempt, text };
        throw failure;
      }
      wait = parseRetryAfter(answer.headers["retry-after"]);
    }
    if (attempt > retries) throw failure!;
    const pause = Math.min(maxWait, wait ?? backoffDelay(attempt, options.retryDelayMs ?? 500, maxWait));
    // a wait that would end past the deadline is not started: the last failure is the answer
    if (clock.now() + pause >= deadline) {
      if (answer && options.throwOnStatus === false)
        return { ...answer, attempts: attempt, text: () => answer!.body.toString("utf8") };
      throw failure!;
    }
    await delay(pause, { clock, signal: options.signal });
  }
}
