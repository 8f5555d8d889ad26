import {
  type AgentTool,
  type ToolContext,
  ToolInputError,
  ToolUnavailableError,
  Type,
  stringEnum,
} from "@clawtools/core";
import { type FileState, isJournalError } from "@clawtools/core/journal";
import { type FsToolOptions, resolveFsEnv } from "../fs-env.js";

export const undoSchema = Type.Object(
  {
    action: stringEnum(["list", "diff", "undo", "redo"], {
      description:
        "list: this session's undoable calls, oldest first; diff: what call `id` changed; undo: restore the files to just before call `id` (this session's later calls too); redo: put back what the last undo took away",
    }),
    id: Type.Optional(Type.String({ description: "A call id from list (diff, undo)" })),
    dryRun: Type.Optional(
      Type.Boolean({ description: "Say what undo / redo would change, changing nothing" }),
    ),
  },
  { additionalProperties: false },
);

const show = (s: FileState) =>
  s === null
    ? "absent"
    : s.type === "file"
      ? `file (${s.size} bytes, mode ${s.mode.toString(8)})`
      : s.type === "symlink"
        ? `symlink -> ${s.target}`
        : "directory";

/**
 * The undo journal as a tool (owner-only): every change write, edit, apply_patch and exec made
 * to the workspace can be listed, inspected, undone and redone.
 */
export function createUndoTool(
  ctx: ToolContext = {},
  options: FsToolOptions = {},
): AgentTool<typeof undoSchema, unknown> {
  const env = resolveFsEnv(ctx, options);
  const journal = env.journal;
  if (!journal)
    throw new ToolUnavailableError(
      "the undo journal needs the local disk and a state directory (context.stateDir)",
    );
  // a session lists and undoes its own calls; other sessions' changes are theirs (the CLI sees all)
  const scope = ctx.sessionKey ? { session: ctx.sessionKey } : {};
  return {
    name: "undo",
    label: "undo",
    description:
      "List, inspect, undo and redo the changes this session's tools made to the workspace (write, edit, apply_patch, exec, background processes). Undo refuses, changing nothing, when a file changed outside the journal since or another session changed it later.",
    parameters: undoSchema,
    async execute(_id, { action, id, dryRun }) {
      try {
        if (action === "list") {
          const { entries, dropped } = await journal.list(scope);
          const lines = entries.map((e) =>
            JSON.stringify({ id: e.id, tool: e.tool, files: e.files.map((f) => f.path) }),
          );
          if (dropped)
            lines.unshift(`(${dropped} oldest calls were dropped to keep the journal under its size bound)`);
          return {
            content: [{ type: "text", text: lines.join("\n") || "No changes recorded." }],
            details: { entries },
          };
        }
        if (action === "redo" || id) {
          const steps =
            action === "diff"
              ? undefined
              : action === "redo"
                ? await journal.redo({ dryRun: dryRun ?? false, ...scope })
                : await journal.undo(id!, { dryRun: dryRun ?? false, ...scope });
          if (steps) {
            const verb = dryRun ? "Would restore" : "Restored";
            const text = steps.length
              ? `${verb} ${steps.length} path(s):\n${steps.map((s) => `${s.path}: ${show(s.from)} -> ${show(s.to)}`).join("\n")}`
              : "Nothing to change: the workspace is already in that state.";
            return { content: [{ type: "text", text }], details: { steps } };
          }
          const files = await journal.diff(id!, scope);
          const text = files.map((f) => `${f.path}: ${show(f.before)} -> ${show(f.after)}`).join("\n");
          return { content: [{ type: "text", text }], details: { files } };
        }
        throw new ToolInputError(`${action} needs id (a call id from action=list)`);
      } catch (error) {
        if (isJournalError(error)) throw new ToolInputError(error.message);
        throw error;
      }
    },
  };
}
