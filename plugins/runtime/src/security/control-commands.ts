import { ToolInputError } from "@clawtools/core";
import { commandsOf } from "./command-prefixes.js";

const APPROVE =
  /^\/approve(?:@\S+)?\s+[A-Za-z0-9][A-Za-z0-9._:-]*\s+(?:allow-once|allow-always|always|deny)\b/i;

export const APPROVE_REFUSED =
  "exec cannot run /approve commands. Show the /approve command to the user as chat text, or route it through the approval command handler instead of shell execution.";

/**
 * Approval decisions belong to the user: a model that tries to run `/approve <id> allow-once`
 * through the shell (bare, or behind env / sudo / sh -c wrappers) is refused.
 */
export function refuseApprovalCommands(command: string, commands = commandsOf(command)): void {
  for (const words of commands) {
    if (APPROVE.test(words.join(" "))) throw new ToolInputError(APPROVE_REFUSED);
  }
}
