import { type EmbeddingProvider, normalize } from "./types.js";

export interface OpenAICompatibleEmbedderOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio). */
  baseUrl: string;
  apiKey?: string;
  /** Default text-embedding-3-small. */
  model?: string;
  /** Vector size the model returns (default 1536). */
  dims?: number;
  /** Inputs per request (default 64). */
  batchSize?: number;
  timeoutMs?: number;
}

/** Any server speaking OpenAI's POST /embeddings: OpenAI, Ollama, LM Studio, vLLM… */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): EmbeddingProvider {
  const model = options.model ?? "text-embedding-3-small";
  const dims = options.dims ?? 1536;
  const url = `${options.baseUrl.replace(/\/$/, "")}/embeddings`;
  return {
    id: "openai-compatible",
    model,
    dims,
    async embed(texts, signal) {
      const out: number[][] = [];
      const size = options.batchSize ?? 64;
      for (let i = 0; i < texts.length; i += size) {
        const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model, input: texts.slice(i, i + size) }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await res.text();
        if (!res.ok)
          throw Object.assign(new Error(`Embedding request failed (${res.status}): ${text.slice(0, 300)}`), {
            status: res.status,
          });
        const data = JSON.parse(text) as { data?: Array<{ embedding: number[]; index?: number }> };
        const rows = [...(data.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        if (rows.length !== Math.min(size, texts.length - i))
          throw new Error("Embedding response has the wrong number of vectors");
        for (const row of rows) {
          if (row.embedding.length !== dims)
            throw new Error(`Embedding has ${row.embedding.length} dimensions, expected ${dims}`);
          out.push(normalize(row.embedding));
        }
      }
      return out;
    },
  };
}
