// The contracts live in core so runners and backends reach them without this section.
export type {
  AgentRunner,
  RunOutcome,
  RunRegistry,
  SessionStore,
  StartRunRequest,
} from "@clawtools/core/contracts";
