import type { ToolContext } from "../tool.js";

// Completion of prompt arguments and resource-template variables (MCP completion/complete).

/** What a completion request gives: the argument, its partial value, the arguments already chosen. */
export interface CompletionRequest {
  argument: string;
  value: string;
  context?: Record<string, string>;
}

/** Suggested values for one argument (at most 100 are sent; `total` may say how many exist). */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** Suggests values for an argument from what the user typed so far and the arguments already chosen. */
export type ArgumentCompleter = (
  value: string,
  context: Record<string, string>,
  ctx: ToolContext,
) => string[] | Promise<string[]>;

/** The most values a completion answer carries (MCP's limit). */
export const MAX_COMPLETION_VALUES = 100;

/** The first `MAX_COMPLETION_VALUES` of `values`, saying when there are more. */
export function completionOf(values: string[]): CompletionValues {
  return values.length > MAX_COMPLETION_VALUES
    ? { values: values.slice(0, MAX_COMPLETION_VALUES), total: values.length, hasMore: true }
    : { values, total: values.length, hasMore: false };
}
