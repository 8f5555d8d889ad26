import type { JsonSchema } from "@clawtools/core";
import { schemaIssues } from "@clawtools/core/wrap";
import type { CallToolResult } from "@modelcontextprotocol/server";

/**
 * A tool that declares an outputSchema promises every successful result's `structuredContent`
 * matches it, and MCP clients refuse a result that does not (the SDK's throws, losing the text
 * too). A result that breaks the promise is sent as an error result instead: its text kept, a note
 * naming what did not match, so the model still sees the answer and the mismatch is visible.
 * An error result whose structured content does not match keeps its text and drops that.
 */
export function checkStructured(
  toolName: string,
  result: CallToolResult,
  outputSchema: JsonSchema | undefined,
  log: (message: string) => void,
): CallToolResult {
  if (!outputSchema) return result;
  if (result.isError) {
    // clients validate an error's structuredContent too (the SDK's does): an error shaped
    // otherwise ({status: "error", tool, error}) goes out as text alone
    if (result.structuredContent === undefined) return result;
    if (schemaIssues(outputSchema, result.structuredContent).length === 0) return result;
    const { structuredContent: _error, ...text } = result;
    return text;
  }
  const issues =
    result.structuredContent === undefined
      ? ["  - root: no structured content (the result had none, or it was too large to send)"]
      : schemaIssues(outputSchema, result.structuredContent);
  if (issues.length === 0) return result;
  const problem = `${toolName}: structured result does not match its outputSchema:\n${issues.join("\n")}`;
  log(problem);
  const { structuredContent: _dropped, ...rest } = result;
  return {
    ...rest,
    content: [...result.content, { type: "text", text: `[clawtools MCP server: ${problem}]` }],
    isError: true,
  };
}
