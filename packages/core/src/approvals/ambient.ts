import { AsyncLocalStorage } from "node:async_hooks";
import type { ToolApprovalHandler } from "./ask.js";

const current = new AsyncLocalStorage<ToolApprovalHandler>();

/**
 * Runs `run` with `handler` as the approval handler of every tool call made inside it. A server
 * (MCP `serve`) uses it to route a call's approvals to the client that made the call; a handler
 * given in code or config wins over it.
 */
export function runWithApprovalHandler<T>(handler: ToolApprovalHandler, run: () => T): T {
  return current.run(handler, run);
}

/** The handler installed by `runWithApprovalHandler` around the current call, if any. */
export function ambientApprovalHandler(): ToolApprovalHandler | undefined {
  return current.getStore();
}
