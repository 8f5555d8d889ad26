import { ToolInputError } from "@clawtools/core";
import { checkPathArg, clip } from "../tools/messages.js";

export interface UpdateChunk {
  /** The `@@ <context>` line, when given. */
  context?: string;
  oldLines: string[];
  newLines: string[];
  /** The chunk's lines in order, so context lines can keep the file's own spelling. */
  ops: Array<{ kind: " " | "-" | "+"; text: string }>;
  /** `*** End of File`: the chunk is anchored at the end of the file. */
  endOfFile: boolean;
}

export type Hunk =
  | { kind: "add"; path: string; contents: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: UpdateChunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

/** Removes a `<<EOF … EOF` (or quoted) heredoc around the envelope (lenient mode). */
function unwrapHeredoc(lines: string[]): string[] {
  if (lines.length < 4) return lines;
  const first = lines[0]!.trim();
  const last = lines[lines.length - 1]!.trim();
  const m = /^(?:apply_patch\s+)?<<\s*(['"]?)(\w+)\1$/.exec(first);
  if (m && last === m[2]) return lines.slice(1, -1);
  return lines;
}

const isHeader = (line: string) => line.startsWith("*** ") && !line.startsWith(EOF_MARK);

/** Parses the apply_patch envelope into hunks; errors name the line that is wrong. */
export function parsePatch(input: string): Hunk[] {
  let lines = input.replace(/\r\n/g, "\n").trim().split("\n");
  lines = unwrapHeredoc(lines);
  if (lines[0]?.trim() !== BEGIN)
    throw new ToolInputError("Invalid patch: the first line of the patch must be '*** Begin Patch'");
  if (lines[lines.length - 1]?.trim() !== END)
    throw new ToolInputError("Invalid patch: the last line of the patch must be '*** End Patch'");
  const body = lines.slice(1, -1);
  const hunks: Hunk[] = [];
  let i = 0;
  const bad = (msg: string) => new ToolInputError(`Invalid patch hunk on line ${i + 2}: ${msg}`);
  while (i < body.length) {
    const line = body[i]!.trim();
    if (line === "") {
      i++;
      continue;
    }
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      const contents: string[] = [];
      i++;
      while (i < body.length && !isHeader(body[i]!)) {
        const l = body[i]!;
        if (!l.startsWith("+")) throw bad(`'${clip(l)}' in an Add File hunk must start with '+'`);
        contents.push(l.slice(1));
        i++;
      }
      hunks.push({ kind: "add", path, contents: contents.length ? `${contents.join("\n")}\n` : "" });
    } else if (line.startsWith(DELETE)) {
      hunks.push({ kind: "delete", path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (body[i]?.trim().startsWith(MOVE)) {
        moveTo = body[i]!.trim().slice(MOVE.length).trim();
        i++;
      }
      const chunks: UpdateChunk[] = [];
      let chunk: UpdateChunk | undefined;
      while (i < body.length && !isHeader(body[i]!)) {
        const l = body[i]!;
        if (l.trim() === EOF_MARK) {
          if (!chunk) throw bad("'*** End of File' before any change");
          chunk.endOfFile = true;
          i++;
          continue;
        }
        if (l.startsWith("@@")) {
          const context = l.slice(2).trim();
          chunk = { ...(context ? { context } : {}), oldLines: [], newLines: [], ops: [], endOfFile: false };
          chunks.push(chunk);
          i++;
          continue;
        }
        if (!chunk) {
          // the first chunk may omit its @@ line
          chunk = { oldLines: [], newLines: [], ops: [], endOfFile: false };
          chunks.push(chunk);
        }
        const mark = l[0];
        if (l === "" || mark === " ") {
          const text = l === "" ? "" : l.slice(1);
          chunk.oldLines.push(text);
          chunk.newLines.push(text);
          chunk.ops.push({ kind: " ", text });
        } else if (mark === "-") {
          chunk.oldLines.push(l.slice(1));
          chunk.ops.push({ kind: "-", text: l.slice(1) });
        } else if (mark === "+") {
          chunk.newLines.push(l.slice(1));
          chunk.ops.push({ kind: "+", text: l.slice(1) });
        } else throw bad(`'${clip(l)}' must start with ' ', '+' or '-' (or be a '@@' line)`);
        i++;
      }
      if (chunks.length === 0 && !moveTo) throw bad(`Update File hunk for ${path} is empty`);
      hunks.push({ kind: "update", path, ...(moveTo ? { moveTo } : {}), chunks });
    } else {
      throw bad(
        `'${clip(line)}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
      );
    }
  }
  for (const hunk of hunks) {
    checkPathArg("A patch path", hunk.path);
    if (hunk.kind === "update") checkPathArg("A patch path", hunk.moveTo);
  }
  return hunks;
}
