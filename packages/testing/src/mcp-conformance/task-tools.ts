import { type AnyAgentTool, type JsonSchema, ToolProtocolError } from "@clawtools/core";
import { ambientApprovalHandler, askApproval } from "@clawtools/core/approvals";
import { pause } from "./tools.js";

/** The text `failing_job` fails with, and what `protocol_error_job` breaks with. */
export const FAILING_JOB_TEXT = "failing_job always fails (a tool execution error)";
export const PROTOCOL_ERROR_TEXT = "protocol_error_job broke below the tool (an internal error)";

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
});

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Asks the caller's approval through core's approval path (in a task: `input_required`). */
async function confirm(command: string, signal: AbortSignal | undefined): Promise<string> {
  const handler = ambientApprovalHandler();
  if (!handler) return "no client to ask";
  return askApproval(
    handler,
    { tool: "confirm_delete", command, cwd: "/", reason: "deleting needs the caller's confirmation" },
    signal ? { signal } : {},
  );
}

/**
 * The fixture tools of the suite's tasks scenarios (tasks-lifecycle, -capability-negotiation,
 * -dispatch-and-envelope, -mrtr-input, -required-task-error, …): `greet` runs at once; the others
 * declare `taskSupport` and run as tasks for a client that negotiated them.
 */
export function conformanceTaskTools(): AnyAgentTool[] {
  return [
    {
      name: "greet",
      description: "Greets by name at once (never a task)",
      parameters: object({ name: { type: "string", description: "Who to greet" } }, ["name"]),
      execute: async (_id, params: { name: string }) => text(`Hello, ${params.name}!`),
    },
    {
      name: "slow_compute",
      description: "Sleeps `seconds` seconds, then answers (a task for a client that negotiated tasks)",
      parameters: object({ seconds: { type: "number", minimum: 0 }, label: { type: "string" } }, ["seconds"]),
      taskSupport: "optional",
      execute: async (_id, params: { seconds: number; label?: string }, signal) => {
        await pause(params.seconds * 1000, signal);
        return text(`slow_compute ${params.label ?? ""} done after ${params.seconds} s`.replace("  ", " "));
      },
    },
    {
      name: "failing_job",
      description: "Fails with a tool error after about a second (runs only as a task)",
      parameters: object({}),
      taskSupport: "required",
      execute: async (_id, _params, signal) => {
        await pause(1000, signal);
        throw new Error(FAILING_JOB_TEXT);
      },
    },
    {
      name: "protocol_error_job",
      description: "Breaks with a protocol-level (internal) error, not a tool error",
      parameters: object({}),
      taskSupport: "optional",
      execute: async () => {
        throw new ToolProtocolError(PROTOCOL_ERROR_TEXT);
      },
    },
    {
      name: "confirm_delete",
      description: "Asks the caller to confirm deleting `filename` (deletes nothing), then answers",
      parameters: object({ filename: { type: "string" } }, ["filename"]),
      taskSupport: "optional",
      execute: async (_id, params: { filename: string }, signal) => {
        const outcome = await confirm(`rm ${params.filename}`, signal);
        return text(`confirm_delete ${params.filename}: ${outcome}`);
      },
    },
    {
      name: "multi_input",
      description: "Asks the caller two confirmations at once, then answers",
      parameters: object({}),
      taskSupport: "optional",
      execute: async (_id, _params, signal) => {
        const outcomes = await Promise.all([confirm("first", signal), confirm("second", signal)]);
        return text(`multi_input: ${outcomes.join(", ")}`);
      },
    },
  ];
}
