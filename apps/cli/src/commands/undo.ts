import path from "node:path";
import { parseArgs } from "node:util";
import { type FileState, isJournalError } from "@clawtools/core/journal";
import { workspaceJournal } from "@clawtools/fs";
import { invocationDir } from "../options.js";
import { UsageError } from "../usage-error.js";

export const UNDO_HELP = `clawtools undo — list, undo and redo the changes tools made to a workspace

Usage: clawtools undo [--workspace <dir>] [--state-dir <dir>] --list | --diff <id> | --to <id> [--dry-run] | --redo [--dry-run]

  --list              one JSON line per changing call ({"id","tool","files"}), oldest first
  --diff <id>         what call <id> changed, one JSON line per path
  --to <id>           restore the workspace to how it was just before call <id>; refuses,
                      changing nothing, when a file changed outside the journal since
  --redo              put back what the last undo took away
  --dry-run           print what --to / --redo would change, changing nothing
  --workspace <dir>   workspace root (default: current directory)
  --state-dir <dir>   where the journal is (default: the workspace's state directory)`;

const show = (s: FileState) =>
  s === null ? null : s.type === "file" ? { type: "file", mode: s.mode.toString(8), size: s.size } : s;

export async function undoCommand(argv: string[], out: (line: string) => void): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: {
        workspace: { type: "string" },
        "state-dir": { type: "string" },
        list: { type: "boolean" },
        diff: { type: "string" },
        to: { type: "string" },
        redo: { type: "boolean" },
        "dry-run": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
  if (values.help) {
    out(UNDO_HELP);
    return 0;
  }
  const actions = (["list", "diff", "to", "redo"] as const).filter((a) => values[a] !== undefined);
  if (actions.length !== 1) throw new UsageError("give one of --list, --diff <id>, --to <id>, --redo");
  const workspace = path.resolve(invocationDir(), (values.workspace as string | undefined) ?? ".");
  const stateDir = values["state-dir"] as string | undefined;
  const journal = workspaceJournal({
    workspaceDir: workspace,
    ...(stateDir ? { stateDir: path.resolve(invocationDir(), stateDir) } : {}),
  });
  const dryRun = values["dry-run"] === true;
  try {
    if (values.list) {
      const { entries, dropped } = await journal.list();
      if (dropped)
        process.stderr.write(
          `clawtools: ${dropped} oldest calls were dropped to keep the journal under its size bound\n`,
        );
      for (const e of entries)
        out(JSON.stringify({ id: e.id, tool: e.tool, files: e.files.map((f) => f.path) }));
      return 0;
    }
    if (values.diff !== undefined) {
      for (const f of await journal.diff(values.diff as string))
        out(JSON.stringify({ path: f.path, before: show(f.before), after: show(f.after) }));
      return 0;
    }
    const steps = values.redo
      ? await journal.redo({ dryRun })
      : await journal.undo(values.to as string, { dryRun });
    for (const s of steps)
      out(
        JSON.stringify({ path: s.path, from: show(s.from), to: show(s.to), ...(dryRun ? { dryRun } : {}) }),
      );
    return 0;
  } catch (error) {
    if (!isJournalError(error)) throw error;
    process.stderr.write(`clawtools: ${(error as Error).message}\n`);
    return 1;
  }
}
