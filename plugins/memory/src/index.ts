export { type Chunk, type ChunkOptions, chunkMarkdown } from "./chunk.js";
export { createLocalEmbedder } from "./embed/local.js";
export { createOpenAICompatibleEmbedder, type OpenAICompatibleEmbedderOptions } from "./embed/openai.js";
export type { EmbeddingProvider } from "./embed/types.js";
export { listMemoryFiles, type MemoryFile } from "./indexer/files.js";
export {
  ftsQuery,
  type MemoryHit,
  MemoryIndex,
  type MemoryIndexOptions,
  type SearchOutcome,
  type SyncReport,
} from "./indexer/memory-index.js";
export {
  applyTemporalDecay,
  decayMultiplier,
  type MmrOptions,
  mmrRerank,
  noteDate,
  type TemporalDecayOptions,
} from "./indexer/post-process.js";
export { createMemoryPlugin, default, type MemoryPluginOptions, memoryPlugin } from "./plugin.js";
export { createMemoryGetTool, isMemoryPath, memoryGetSchema } from "./tools/memory-get.js";
export { createMemorySearchTool, memorySearchSchema } from "./tools/memory-search.js";
