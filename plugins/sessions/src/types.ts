// Moved to core so runners and backends reach them without this section; re-exported unchanged.
export type {
  AnnounceState,
  MessageBlock,
  RunRecord,
  RunStatus,
  SessionEntry,
  TranscriptMessage,
} from "@clawtools/core/contracts";
