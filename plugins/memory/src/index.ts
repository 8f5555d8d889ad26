export { type Chunk, type ChunkOptions, chunkMarkdown } from "./chunk.js";
export {
  type MemoryConfig,
  type MemorySearchConfig,
  memoryConfigSchema,
} from "./config.js";
export { createLocalEmbedder } from "./embed/local.js";
export {
  createOpenAICompatibleEmbedder,
  EmbeddingHttpError,
  type EmbeddingRetryOptions,
  embeddingsResponseSchema,
  isEmbeddingHttpError,
  type OpenAICompatibleEmbedderOptions,
} from "./embed/openai.js";
export type { EmbeddingProvider } from "./embed/types.js";
export {
  listMemoryFiles,
  MAX_MEMORY_FILE_BYTES,
  type MemoryFile,
  type MemoryListing,
  type SkippedFile,
} from "./indexer/files.js";
export { SqliteMemoryBackend, type SqliteMemoryBackendOptions } from "./backend/sqlite.js";
export { checkChanges as checkMemoryChanges, checkSearch as checkMemorySearch } from "./backend/validate.js";
export {
  type BackendSyncResult,
  type ChangedFile,
  type FileFingerprint,
  isMemoryIndexResetError,
  type MemoryBackend,
  type MemoryBackendContext,
  type MemoryBackendFactory,
  type MemoryBackendStatus,
  type MemoryChanges,
  MemoryIndexResetError,
} from "./backend/types.js";
export { MemoryIndex, type MemoryIndexOptions } from "./indexer/memory-index.js";
export {
  applyTemporalDecay,
  decayMultiplier,
  type MmrOptions,
  mmrRerank,
  noteDate,
  type TemporalDecayOptions,
} from "./indexer/post-process.js";
export { VectorIndex } from "./store/vector-index.js";
export {
  ftsQuery,
  MAX_QUERY_CHARS,
  type MemoryHit,
  type SearchOptions,
  type SearchOutcome,
} from "./indexer/search.js";
export type { SyncReport } from "./indexer/sync.js";
export { createMemoryPlugin, default, type MemoryPluginOptions, memoryPlugin } from "./plugin.js";
export { type IndexRecovery, isCorruptionError } from "./store/database.js";
export {
  buildExcerpt,
  createMemoryGetTool,
  DEFAULT_MEMORY_GET_LINES,
  DEFAULT_MEMORY_GET_MAX_CHARS,
  isMemoryPath,
  MAX_MEMORY_PATH_CHARS,
  type MemoryExcerpt,
  memoryGetSchema,
} from "./tools/memory-get.js";
export { createMemorySearchTool, memorySearchSchema } from "./tools/memory-search.js";
