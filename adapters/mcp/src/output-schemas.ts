import type { JsonSchema } from "@clawtools/core";

/**
 * The `details` shapes of core tools whose structured result has one known shape, as MCP
 * `outputSchema`s. Fields a result may leave out are optional and extra fields are allowed (a
 * section may add one), so a schema states what a client can rely on. Tools whose details change
 * with the action (process, cron, gateway, browser, canvas, message, nodes, subagents) or that
 * have none (read, write, ls, grep, find) declare none; a tool may declare its own
 * (`outputSchema` on the tool), which wins over this table.
 */

const str = { type: "string" } as const;
const int = { type: "integer" } as const;
const num = { type: "number" } as const;
const bool = { type: "boolean" } as const;
const obj = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
});
const nullable = (schema: object) => ({ anyOf: [schema, { type: "null" }] });
/** OpenClaw's tools answer some refusals as a normal result: `{status: "error", error}`. */
const refusal = obj({ status: str, error: str }, ["status", "error"]);
const orRefusal = (schema: JsonSchema): JsonSchema => ({ type: "object", anyOf: [schema, refusal] });

const execDetails = obj(
  {
    status: { type: "string", enum: ["completed", "failed", "running"] },
    cwd: str,
    exitCode: nullable(int),
    exitSignal: nullable(str),
    durationMs: num,
    sessionId: str,
    pid: int,
    startedAt: num,
    tail: str,
    aggregated: str,
    truncated: bool,
    totalChars: int,
    totalLines: int,
    omittedChars: int,
    omittedLines: int,
    outputFile: str,
  },
  ["status"],
);

const editDetails = obj({ diff: str, firstChangedLine: int, changed: bool }, ["diff"]);

const memoryHit = obj(
  {
    path: str,
    startLine: int,
    endLine: int,
    score: num,
    snippet: str,
    source: str,
    citation: str,
  },
  ["path", "startLine", "endLine", "snippet"],
);
const memorySearchDetails = obj(
  { results: { type: "array", items: memoryHit }, provider: str, model: str, warning: str, error: str },
  ["results"],
);
const memoryGetDetails = obj({ path: str, text: str, status: str }, ["path", "text"]);

const sessionsListDetails = obj(
  {
    count: int,
    sessions: {
      type: "array",
      items: obj({ key: str, kind: str, channel: str, sessionId: str, updatedAt: num, label: str }, ["key"]),
    },
  },
  ["count", "sessions"],
);
const sessionsHistoryDetails = orRefusal(
  obj(
    {
      sessionKey: str,
      messages: { type: "array", items: { type: "object" } },
      truncated: bool,
      droppedMessages: int,
      contentTruncated: bool,
      contentRedacted: bool,
      bytes: int,
    },
    ["sessionKey", "messages"],
  ),
);
const sessionStatusDetails = orRefusal(
  obj({ ok: bool, sessionKey: str, changedModel: bool, statusText: str }, ["sessionKey", "statusText"]),
);
const agentsListDetails = obj(
  {
    requester: str,
    allowAny: bool,
    agents: { type: "array", items: obj({ id: str, name: str, configured: bool }, ["id"]) },
  },
  ["agents"],
);
const updatePlanDetails = obj(
  {
    status: str,
    explanation: str,
    plan: {
      type: "array",
      items: obj({ step: str, status: { type: "string", enum: ["pending", "in_progress", "completed"] } }, [
        "step",
        "status",
      ]),
    },
  },
  ["status", "plan"],
);

export const CORE_OUTPUT_SCHEMAS: Readonly<Record<string, JsonSchema>> = Object.freeze({
  exec: execDetails,
  edit: editDetails,
  memory_search: memorySearchDetails,
  memory_get: memoryGetDetails,
  sessions_list: sessionsListDetails,
  sessions_history: sessionsHistoryDetails,
  session_status: sessionStatusDetails,
  agents_list: agentsListDetails,
  update_plan: updatePlanDetails,
});
