/** One Journal per workspace and state directory in a process, and the entry point for commands. */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { Journal, type JournalOptions } from "./journal.js";

/**
 * For a section that runs commands in a workspace (exec): the scan before, and a function that
 * records what changed; a no-op without a workspace and a state directory.
 */
export async function beginJournal(
  ctx: { workspaceDir?: string; stateDir?: string; sessionKey?: string },
  tool: string,
): Promise<(() => Promise<unknown>) | undefined> {
  if (!ctx.workspaceDir || !ctx.stateDir) return undefined;
  let root = path.resolve(ctx.workspaceDir);
  root = await realpath(root).catch(() => root);
  return journalFor(root, ctx.stateDir).begin(tool, ctx.sessionKey ? { session: ctx.sessionKey } : {});
}

const journals = new Map<string, Journal>();

/** The journal of `workspace` under `stateDir`, one instance per directory in this process. */
export function journalFor(workspace: string, stateDir: string, options: JournalOptions = {}): Journal {
  const key = `${path.resolve(stateDir)}\0${path.resolve(workspace)}`;
  let j = journals.get(key);
  if (!j) {
    j = new Journal(path.resolve(workspace), stateDir, options);
    journals.set(key, j);
  }
  return j;
}
