import { type Static, Type, ClawtoolsError } from "@clawtools/core";
import { httpJson, isHttpError } from "@clawtools/core/http";
import { type EmbeddingProvider, normalize } from "./types.js";

/** The part of OpenAI's POST /embeddings response this client reads (other fields are allowed). */
export const embeddingsResponseSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      embedding: Type.Array(Type.Number()),
      index: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  ),
});

export interface EmbeddingRetryOptions {
  /** Retries after the first attempt for 408, 425, 429, 5xx, timeouts and network errors (default 3). */
  retries?: number;
  /** Wait before the first retry, doubling each time with jitter (default 500 ms); a `Retry-After` wins. */
  minTimeoutMs?: number;
  /** Cap for one wait, backoff or `Retry-After` (default 8 s). */
  maxTimeoutMs?: number;
}

export interface OpenAICompatibleEmbedderOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio). */
  baseUrl: string;
  apiKey?: string;
  /** Extra request headers (an organisation, a proxy's key). */
  headers?: Record<string, string>;
  /** Default text-embedding-3-small. */
  model?: string;
  /** Vector size the model returns (default 1536). */
  dims?: number;
  /** Inputs per request (default 64). */
  batchSize?: number;
  /** Per attempt (default 60 s). */
  timeoutMs?: number;
  retry?: EmbeddingRetryOptions;
}

const EMBEDDING_HTTP_ERROR = Symbol.for("clawtools.error.EmbeddingHttpError");

/** An HTTP failure of the embeddings endpoint, with its status (429 and 5xx were retried first). */
export class EmbeddingHttpError extends ClawtoolsError {
  static override readonly marker: symbol = EMBEDDING_HTTP_ERROR;
  readonly [EMBEDDING_HTTP_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_EMBEDDING_HTTP";
  }
  constructor(
    readonly status: number,
    /** At most 300 characters of the answer, with the request's credentials taken out. */
    body: string,
    options?: ErrorOptions,
  ) {
    super(`Embedding request failed (${status}): ${body.slice(0, 300)}`, options);
    this.name = "EmbeddingHttpError";
  }
}

/** True for an EmbeddingHttpError, even one made by another copy of this package. */
export function isEmbeddingHttpError(error: unknown): error is EmbeddingHttpError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[EMBEDDING_HTTP_ERROR] === true
  );
}

/** The endpoint as errors may name it: origin and path, never userinfo or a query. */
function endpointLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    throw new Error(`memory embeddings baseUrl is not a valid URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
}

/** Any server speaking OpenAI's POST /embeddings: OpenAI, Ollama, LM Studio, vLLM… */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): EmbeddingProvider {
  const model = options.model ?? "text-embedding-3-small";
  const dims = options.dims ?? 1536;
  const url = `${options.baseUrl.replace(/\/$/, "")}/embeddings`;
  const label = endpointLabel(url);
  const retry = options.retry ?? {};

  // core's one HTTP client: retries 429/5xx/network errors (honouring Retry-After), checks the
  // answer's shape, and keeps the key and header values out of every error it makes
  const request = async (input: string[], signal?: AbortSignal): Promise<number[][]> => {
    let body: Static<typeof embeddingsResponseSchema>;
    try {
      body = await httpJson(url, {
        method: "POST",
        json: { model, input },
        headers: {
          ...options.headers,
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        schema: embeddingsResponseSchema,
        // the same inputs give the same vectors: a resend is safe
        idempotent: true,
        retries: retry.retries ?? 3,
        retryDelayMs: retry.minTimeoutMs ?? 500,
        maxRetryDelayMs: retry.maxTimeoutMs ?? 8000,
        timeoutMs: options.timeoutMs ?? 60_000,
        // 64 inputs of 3072 floats as JSON text is a few MB
        maxBytes: 64_000_000,
        label,
        ...(options.apiKey ? { secrets: [options.apiKey] } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (!isHttpError(error)) throw error;
      if (error.kind === "status")
        throw new EmbeddingHttpError(error.status, error.bodyExcerpt ?? "", { cause: error });
      if (error.kind === "json")
        throw new Error(`Embedding response from ${label} is not JSON`, { cause: error });
      if (error.kind === "schema")
        throw new Error(
          `Embedding response from ${label} does not have OpenAI's embeddings shape:\n${(error.issues ?? []).slice(0, 5).join("\n")}`,
          { cause: error },
        );
      throw error; // network or timeout, already redacted and naming the endpoint
    }
    const rows = [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (rows.length !== input.length)
      throw new Error(`Embedding response has ${rows.length} vectors for ${input.length} inputs`);
    return rows.map((row) => {
      if (row.embedding.length !== dims)
        throw new Error(`Embedding has ${row.embedding.length} dimensions, expected ${dims}`);
      return normalize(row.embedding);
    });
  };

  return {
    id: "openai-compatible",
    model,
    dims,
    async embed(texts, signal) {
      const out: number[][] = [];
      const size = options.batchSize ?? 64;
      for (let i = 0; i < texts.length; i += size) {
        const input = texts.slice(i, i + size);
        const vectors = await request(input, signal);
        out.push(...vectors);
      }
      return out;
    },
  };
}
