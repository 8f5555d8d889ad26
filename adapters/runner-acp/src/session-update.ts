import { isObject } from "./model-choice.js";
import type { AcpRunInfo } from "./types.js";

/** Most reply text kept from one turn (an agent streaming without end cannot exhaust memory). */
export const MAX_REPLY_CHARS = 4 * 1024 * 1024;

/** One turn's reply text so far, and its length. */
export interface ReplyBuffer {
  chunks: string[];
  chars: number;
}

/**
 * Folds one `session/update` into the run: message chunks into the reply (capped at
 * MAX_REPLY_CHARS), tool calls and their updates into `info.toolCalls`.
 */
export function applySessionUpdate(
  update: Record<string, unknown>,
  info: AcpRunInfo,
  reply: ReplyBuffer,
): void {
  switch (update.sessionUpdate) {
    case "agent_message_chunk": {
      const content = update.content;
      if (isObject(content) && content.type === "text" && typeof content.text === "string") {
        const room = MAX_REPLY_CHARS - reply.chars;
        if (room > 0) {
          const text = content.text.length > room ? content.text.slice(0, room) : content.text;
          reply.chunks.push(text);
          reply.chars += text.length;
        }
      }
      break;
    }
    case "tool_call":
    case "tool_call_update": {
      if (typeof update.toolCallId !== "string") break;
      let call = info.toolCalls.find((c) => c.toolCallId === update.toolCallId);
      if (!call) {
        call = { toolCallId: update.toolCallId };
        info.toolCalls.push(call);
      }
      for (const key of ["title", "kind", "status"] as const)
        if (typeof update[key] === "string") call[key] = update[key] as string;
      if ("rawInput" in update) call.rawInput = update.rawInput;
      if ("rawOutput" in update) call.rawOutput = update.rawOutput;
      break;
    }
  }
}
