import { ambientApprovalHandler } from "./ambient.js";
import {
  type ApprovalOutcome,
  askApproval,
  type ToolApprovalHandler,
  type ToolApprovalRequest,
} from "./ask.js";
import { noteCall } from "../wrap/call-notes.js";
import { ApprovalMemory } from "./memory.js";

export interface ApprovalGateOptions<R extends ToolApprovalRequest> {
  /** Wins over the handler installed around the call (`runWithApprovalHandler`). */
  handler?: ToolApprovalHandler<R>;
  timeoutMs?: number;
  /** Where "allow always" is remembered; absent ⇒ for this gate's lifetime only. */
  stateDir?: string;
}

/** How a gated request ended: a remembered "allow always", no handler at all, or the handler's outcome. */
export type ApprovalGateOutcome = ApprovalOutcome | "remembered" | "unavailable";

/** The approval path: remembered answers first, then the handler under the timeout policy. */
export class ApprovalGate<R extends ToolApprovalRequest = ToolApprovalRequest> {
  readonly memory: ApprovalMemory;
  constructor(private readonly options: ApprovalGateOptions<R> = {}) {
    this.memory = new ApprovalMemory(options.stateDir);
  }

  /**
   * `key` names what "allow always" covers (the exact command, plus anything else that must
   * match, such as the call's environment); the directory the form showed (`request.cwd`) is
   * always part of it, so an answer for one directory never allows the command in another.
   */
  async decide(request: R, key: string, signal?: AbortSignal): Promise<ApprovalGateOutcome> {
    const remembered = `${request.cwd}\u0000${key}`;
    if (await this.memory.has(request.tool, remembered)) {
      noteCall("approval", "remembered");
      return "remembered";
    }
    const handler = this.options.handler ?? ambientApprovalHandler();
    if (!handler) {
      noteCall("approval", "unavailable");
      return "unavailable";
    }
    const outcome = await askApproval(handler as ToolApprovalHandler<R>, request, {
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      ...(signal ? { signal } : {}),
    });
    if (outcome === "allow-always") await this.memory.remember(request.tool, remembered);
    return outcome;
  }
}
