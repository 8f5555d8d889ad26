import type { AnyAgentTool } from "@clawtools/core";

/**
 * A tool's `prepare` (what its first call loads), to await before the call's context is entered;
 * undefined when there is nothing to wait for. Never rejects or throws: a tool that cannot load
 * fails in its call, in that call's words.
 */
export function prepareCall(tool: AnyAgentTool | undefined): Promise<void> | undefined {
  let ready: Promise<void> | undefined;
  try {
    ready = tool?.prepare?.();
  } catch {
    return undefined;
  }
  return ready?.catch(() => {});
}
