import { type AgentTool, type ToolContext, ToolInputError, Type } from "@clawtools/core";
import {
  type AppliedDrift,
  applyEdits,
  type Edit,
  EditNoChangeError,
  type EditOutcome,
} from "../edit/apply-edits.js";
import { generateDiffString } from "../edit/diff.js";
import { joinEndings, splitEndings } from "../edit/line-endings.js";
import { normalizeToLF } from "../edit/normalize.js";
import { changedSince, seenText } from "../stale/judge.js";
import { lineOf, staleRefusal, touches, withLoopNote } from "../stale/region.js";
import { checkPathArg } from "./messages.js";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";

const editItem = Type.Object(
  {
    oldText: Type.String({
      description:
        "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
    }),
    newText: Type.String({ description: "Replacement text for this targeted edit." }),
    replaceAll: Type.Optional(
      Type.Boolean({
        description: "Replace every occurrence of this oldText instead of requiring it to be unique.",
      }),
    ),
  },
  { additionalProperties: false },
);

const canonical = {
  path: Type.String({ description: "Path to the file to edit (relative or absolute)" }),
  edits: Type.Optional(
    Type.Array(editItem, {
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    }),
  ),
  oldText: Type.Optional(
    Type.String({ description: "Legacy single replacement: text to find (prefer edits[])" }),
  ),
  newText: Type.Optional(
    Type.String({ description: "Legacy single replacement: replacement text (prefer edits[])" }),
  ),
  replaceAll: Type.Optional(
    Type.Boolean({
      description:
        "Replace every occurrence of each oldText (default false: each must be unique), e.g. to rename a variable.",
    }),
  ),
};

export const editSchema = Type.Object(canonical, { additionalProperties: false });

/** The Claude-Code spellings (spec/001) accepted next to the canonical names; `path` is then checked at run time. */
export const editSchemaWithAliases = Type.Object(
  {
    ...canonical,
    path: Type.Optional(canonical.path),
    file_path: Type.Optional(Type.String({ description: "Alias of path" })),
    old_string: Type.Optional(Type.String({ description: "Alias of oldText" })),
    new_string: Type.Optional(Type.String({ description: "Alias of newText" })),
    replace_all: Type.Optional(Type.Boolean({ description: "Alias of replaceAll" })),
  },
  { additionalProperties: false },
);

export interface EditDetails {
  diff: string;
  firstChangedLine?: number;
  /** Edits applied although their oldText differed in indentation or spacing (said in the text too). */
  drift?: AppliedDrift[];
  /** false when the edits would leave the file as it is (nothing was written). */
  changed?: false;
}

export interface EditToolOptions extends FsToolOptions {
  /** Accept file_path / old_string / new_string (default true). */
  claudeCodeAliases?: boolean;
}

type EditParams = {
  path?: string;
  edits?: Edit[];
  oldText?: string;
  newText?: string;
  file_path?: string;
  old_string?: string;
  new_string?: string;
  replaceAll?: boolean;
  replace_all?: boolean;
};

function describeReceived(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([k, v]) => (v === "" ? `${k}=<empty-string>` : k))
    .join(", ");
}

/** One sentence per drifted edit, so the model knows its oldText was not what the file holds. */
function describeDrift(drift: AppliedDrift[], n: number): string {
  return drift
    .map(({ edit, kind, detail }) => {
      const which = n === 1 ? "oldText" : `edits[${edit}].oldText`;
      if (kind === "indentation")
        return `\nApplied with indentation drift: the file has the lines of ${which} ${detail}; newText was re-indented to match.`;
      if (kind === "tabs")
        return `\nApplied with tab/space drift: the file indents the lines of ${which} with ${detail}; newText was re-indented in the file's characters.`;
      return `\nApplied with spacing drift: ${which} matched lines whose runs of spaces differ; newText follows the file's spacing.`;
    })
    .join("");
}

/** Canonical path + edits[]; the legacy pair is appended to edits[] (never applied twice). */
export function collectEdits(params: EditParams, aliases: boolean): { path: string; edits: Edit[] } {
  const path = params.path ?? (aliases ? params.file_path : undefined);
  const oldText = params.oldText ?? (aliases ? params.old_string : undefined);
  const newText = params.newText ?? (aliases ? params.new_string : undefined);
  const all = params.replaceAll ?? (aliases ? params.replace_all : undefined);
  const edits = [...(params.edits ?? [])];
  if (oldText !== undefined || newText !== undefined) {
    const duplicate = edits.some((e) => e.oldText === oldText && e.newText === newText);
    if (!duplicate) edits.push({ oldText: oldText ?? "", newText: newText ?? "" });
  }
  // a call-level replaceAll / replace_all applies to every edit that does not say otherwise
  if (all !== undefined)
    for (const [k, e] of edits.entries()) edits[k] = { ...e, replaceAll: e.replaceAll ?? all };
  const missing: string[] = [];
  if (!path?.trim()) missing.push("path");
  if (edits.length === 0) missing.push("edits");
  if (missing.length > 0) {
    throw new ToolInputError(
      `Missing required parameter(s): ${missing.join(", ")} (received: ${describeReceived(params as Record<string, unknown>)}). Supply correct parameters before retrying.`,
    );
  }
  return { path: path!, edits };
}

export function createEditTool(
  ctx: ToolContext = {},
  options: EditToolOptions = {},
): AgentTool<typeof editSchemaWithAliases, EditDetails> {
  const env = resolveFsEnv(ctx, options);
  const aliases = options.claudeCodeAliases ?? true;
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.",
    parameters: (aliases ? editSchemaWithAliases : editSchema) as typeof editSchemaWithAliases,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      const { path, edits } = collectEdits(params as EditParams, aliases);
      checkPathArg("path", path);
      const abs = env.resolve(path);
      return env.withWriteLock([abs], async () => {
        // one verified read; only when it fails is the path looked at, to say what is there
        const bytes = await env.bridge.readFile({ filePath: abs }).catch(async (error: unknown) => {
          const stat = await env.bridge.stat({ filePath: abs });
          if (!stat) throw new ToolInputError(`File not found: ${path}.`);
          if (stat.type === "directory")
            throw new ToolInputError(`${path} is a directory; edit changes one file (use ls to list it).`);
          if (stat.type !== "file") throw new ToolInputError(`Not a regular file: ${path}.`);
          throw error;
        });
        const raw = bytes.toString("utf8");
        throwIfAborted(signal);
        const lined = splitEndings(raw);
        const original = lined.text;
        const normalizedEdits = edits.map((e) => ({
          ...e,
          oldText: normalizeToLF(e.oldText),
          newText: normalizeToLF(e.newText),
        }));
        let outcome: EditOutcome;
        try {
          outcome = applyEdits(original, normalizedEdits, path);
        } catch (error) {
          // an edit that changes nothing is an answer (OpenClaw), not a failure to retry
          if (error instanceof EditNoChangeError)
            return {
              content: [{ type: "text", text: error.message }],
              details: { diff: "", changed: false },
            };
          if (error instanceof ToolInputError)
            throw new ToolInputError(withLoopNote(error.message, env.seen.refused(error.message)));
          throw error;
        }
        throwIfAborted(signal);
        const updated = outcome.content;
        // the stale guard: a file changed on disk since this session saw it is judged by the
        // lines the edit touches; changes elsewhere (a formatter, another writer) are kept
        const then = await env.seen.get(abs);
        const ranges = then === undefined ? undefined : changedSince(then, raw, original);
        if (then !== undefined && ranges !== undefined) {
          for (const { start, end } of outcome.spans) {
            const [first, last] = [lineOf(original, start), lineOf(original, Math.max(start, end - 1))];
            if (!touches(ranges, first, last)) continue;
            const message = staleRefusal({
              shown: path,
              seen: seenText(then),
              now: original,
              wanted: updated,
              first,
              last,
            });
            throw new ToolInputError(withLoopNote(message, env.seen.refused(message)));
          }
        }
        const written = joinEndings(lined, updated);
        // encoded once for the write and the journal
        const data = Buffer.from(written);
        await env.journalled(
          "edit",
          [abs],
          () => env.bridge.writeFile({ filePath: abs, data }),
          new Map([[abs, { before: bytes, after: data }]]),
        );
        env.seen.set(abs, written);
        const { diff, firstChangedLine } = generateDiffString(original, updated);
        const answer = `Successfully replaced ${outcome.replaced} block(s) in ${path}.${describeDrift(outcome.drift, edits.length)}`;
        return {
          content: [{ type: "text", text: answer }],
          details: {
            diff,
            ...(firstChangedLine !== undefined ? { firstChangedLine } : {}),
            ...(outcome.drift.length ? { drift: outcome.drift } : {}),
          },
        };
      });
    },
  };
}
