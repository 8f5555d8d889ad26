import { schemaIssues, Type } from "@clawtools/core";
import pRetry, { AbortError } from "p-retry";
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
  /** Retries after the first attempt for 429, 5xx and network errors (default 3). */
  retries?: number;
  /** Wait before the first retry, doubling each time (default 500 ms, at most 8 s). */
  minTimeoutMs?: number;
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

/** An HTTP failure of the embeddings endpoint, with its status (429 and 5xx are retried). */
export class EmbeddingHttpError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`Embedding request failed (${status}): ${body.slice(0, 300)}`);
    this.name = "EmbeddingHttpError";
  }
}

const retryable = (error: unknown) =>
  error instanceof EmbeddingHttpError
    ? error.status === 429 || error.status >= 500
    : error instanceof TypeError; // fetch's network failure

/** Any server speaking OpenAI's POST /embeddings: OpenAI, Ollama, LM Studio, vLLM… */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): EmbeddingProvider {
  const model = options.model ?? "text-embedding-3-small";
  const dims = options.dims ?? 1536;
  const url = `${options.baseUrl.replace(/\/$/, "")}/embeddings`;
  const retry = options.retry ?? {};

  const request = async (input: string[], signal?: AbortSignal): Promise<number[][]> => {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...options.headers,
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model, input }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await res.text();
    if (!res.ok) throw new EmbeddingHttpError(res.status, text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`Embedding response from ${url} is not JSON: ${text.slice(0, 200)}`);
    }
    const issues = schemaIssues(embeddingsResponseSchema, body);
    if (issues.length > 0)
      throw new Error(
        `Embedding response from ${url} does not have OpenAI's embeddings shape:\n${issues.slice(0, 5).join("\n")}`,
      );
    const rows = [...(body as { data: Array<{ embedding: number[]; index?: number }> }).data].sort(
      (a, b) => (a.index ?? 0) - (b.index ?? 0),
    );
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
        const vectors = await pRetry(
          async () => {
            try {
              return await request(input, signal);
            } catch (error) {
              if (signal?.aborted || !retryable(error)) throw new AbortError(error as Error);
              throw error;
            }
          },
          {
            retries: retry.retries ?? 3,
            minTimeout: retry.minTimeoutMs ?? 500,
            maxTimeout: retry.maxTimeoutMs ?? 8000,
            unref: true,
            ...(signal ? { signal } : {}),
          },
        );
        out.push(...vectors);
      }
      return out;
    },
  };
}
