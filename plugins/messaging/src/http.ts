import { ClawtoolsError } from "@clawtools/core";
import { redactError, redactSecrets } from "@clawtools/core/safety";
import { httpRequest } from "@clawtools/core/http";
import type { MediaAttachment, PreparedRequest } from "./channel.js";

/** A request a channel makes to its own configured API (not model-controlled: no URL policy). */
export interface Outgoing {
  method: PreparedRequest["method"];
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** application/x-www-form-urlencoded fields. */
  form?: Record<string, string>;
  multipart?: Record<string, string | MediaAttachment>;
  /** A raw body (an upload to a URL an API handed out). */
  raw?: MediaAttachment;
}

const REDACTED = "<redacted>";

/** The request as `dryRun` shows it: secrets (tokens in URLs and headers) replaced. */
export function describe(out: Outgoing, secrets: string[]): PreparedRequest {
  const hide = (s: string) =>
    secrets.filter(Boolean).reduce((acc, secret) => acc.split(secret).join(REDACTED), s);
  const headers = Object.fromEntries(Object.entries(out.headers ?? {}).map(([k, v]) => [k, hide(v)]));
  const prepared: PreparedRequest = { method: out.method, url: hide(out.url), headers };
  if (out.json !== undefined) prepared.json = out.json;
  if (out.form) prepared.json = { form: out.form };
  if (out.raw)
    prepared.multipart = {
      body: { filename: out.raw.filename, contentType: out.raw.contentType, bytes: out.raw.data.length },
    };
  if (out.multipart)
    prepared.multipart = Object.fromEntries(
      Object.entries(out.multipart).map(([k, v]) => [
        k,
        typeof v === "string"
          ? v
          : { filename: v.filename, contentType: v.contentType, bytes: v.data.length },
      ]),
    );
  return prepared;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * Sends one request through core's HTTP client and reads the answer (JSON when it parses). A
 * GET is retried on network errors, 429 and 5xx (honouring `Retry-After`); a POST is not, since
 * a channel API could act on it twice. Error statuses come back as answers for the channel to word.
 */
export async function send(out: Outgoing, signal?: AbortSignal, timeoutMs = 30_000): Promise<HttpAnswer> {
  let body: string | FormData | Buffer | undefined;
  const headers: Record<string, string> = { ...out.headers };
  if (out.json !== undefined) {
    body = JSON.stringify(out.json);
    headers["content-type"] = "application/json; charset=utf-8";
  } else if (out.form) {
    body = new URLSearchParams(out.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (out.raw) {
    body = out.raw.data;
    headers["content-type"] = out.raw.contentType;
  } else if (out.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(out.multipart)) {
      if (typeof v === "string") form.append(k, v);
      else form.append(k, new Blob([Uint8Array.from(v.data)], { type: v.contentType }), v.filename);
    }
    body = form;
  }
  // a network error can name the URL (a token in its path): the registered secrets come out
  const response = await httpRequest(out.url, {
    method: out.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(signal ? { signal } : {}),
    timeoutMs,
    throwOnStatus: false,
  }).catch((error: unknown) => {
    throw redactError(error);
  });
  const text = response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, text };
}

const CHANNEL_API_ERROR = Symbol.for("clawtools.error.ChannelApiError");

/**
 * An API answered with an error; the message names the channel and what it said, with every
 * registered secret (the channel's token, a webhook URL) taken out: some APIs echo them back.
 */
export class ChannelApiError extends ClawtoolsError {
  static override readonly marker: symbol = CHANNEL_API_ERROR;
  readonly [CHANNEL_API_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_CHANNEL_API";
  }
  constructor(
    readonly channel: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${channel} API error (${status}): ${redactSecrets(detail).slice(0, 300)}`);
    this.name = "ChannelApiError";
  }
}

/** Whether `error` is a ChannelApiError from any copy of this package (its brand, not `instanceof`). */
export function isChannelApiError(error: unknown): error is ChannelApiError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[CHANNEL_API_ERROR] === true
  );
}

export const trimSlash = (url: string) => url.replace(/\/+$/, "");
