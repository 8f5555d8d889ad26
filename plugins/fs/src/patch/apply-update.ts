import { ToolInputError } from "@clawtools/core";
import { indentConverter } from "../edit/tabs.js";
import { clip } from "../tools/messages.js";
import type { UpdateChunk } from "./parse.js";
import { seekSequence } from "./seek.js";

/** The new content of a file after its update chunks; throws (changing nothing) when a chunk does not fit. */
export function applyUpdateChunks(
  original: string,
  chunks: UpdateChunk[],
  displayPath: string,
  /** Receives the lines of `original` (0-based, inclusive) each chunk changes, context lines aside. */
  touched: Array<[number, number]> = [],
): string {
  const lines = original.split("\n");
  // the trailing newline is restored below; a file without one keeps going without one
  const finalNewline = original === "" || lines[lines.length - 1] === "";
  if (finalNewline) lines.pop();
  const replacements: Array<{ at: number; remove: number; insert: string[] }> = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const at = seekSequence(lines, [chunk.context], cursor, false);
      if (at === -1)
        throw new ToolInputError(`Failed to find context '${clip(chunk.context)}' in ${displayPath}`);
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // pure addition: after its @@ context line, else (or with *** End of File) at the end
      const at = chunk.context !== undefined && !chunk.endOfFile ? cursor : lines.length;
      replacements.push({ at, remove: 0, insert: chunk.newLines });
      continue;
    }
    let oldLines = chunk.oldLines;
    let ops = chunk.ops;
    let at = seekSequence(lines, oldLines, cursor, chunk.endOfFile);
    if (at === -1 && oldLines[oldLines.length - 1] === "") {
      // a trailing empty context line often stands for the file's final newline
      oldLines = oldLines.slice(0, -1);
      const lastContext = ops.map((op) => op.kind).lastIndexOf(" ");
      if (lastContext !== -1 && ops[lastContext]!.text === "") ops = ops.filter((_, k) => k !== lastContext);
      at = seekSequence(lines, oldLines, cursor, chunk.endOfFile);
    }
    if (at === -1) {
      throw new ToolInputError(
        `Failed to find expected lines in ${displayPath}:\n${clip(chunk.oldLines.join("\n"), 2000)}`,
      );
    }
    // context lines keep the file's own text (the patch may have matched them loosely); added
    // lines follow the file's indentation characters when the patch swapped tabs and spaces
    const convert = tabSwap(oldLines, lines.slice(at, at + oldLines.length), ops);
    const insert: string[] = [];
    let oldIndex = 0;
    let [first, last] = [Number.POSITIVE_INFINITY, -1];
    for (const op of ops) {
      if (op.kind !== " ") {
        first = Math.min(first, at + oldIndex);
        last = Math.max(last, at + oldIndex - (op.kind === "+" ? 1 : 0));
      }
      if (op.kind === " ") insert.push(lines[at + oldIndex++]!);
      else if (op.kind === "-") oldIndex++;
      else insert.push(convert(op.text));
    }
    if (last >= 0) touched.push([Math.min(first, last), Math.max(first, last)]);
    replacements.push({ at, remove: oldLines.length, insert });
    cursor = at + oldLines.length;
  }
  replacements.sort((a, b) => a.at - b.at);
  for (const r of [...replacements].reverse()) lines.splice(r.at, r.remove, ...r.insert);
  if (!lines.length) return "";
  return finalNewline ? `${lines.join("\n")}\n` : lines.join("\n");
}

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];

/** The re-indentation of added lines when the chunk's lines indent with tabs where the file's use spaces (or the reverse). */
function tabSwap(oldLines: string[], fileLines: string[], ops: UpdateChunk["ops"]): (line: string) => string {
  const pairs = oldLines
    .map((line, k): [string, string] => [indentOf(line), indentOf(fileLines[k] ?? "")])
    .filter(
      ([, f], k) => oldLines[k]!.trim() !== "" && (fileLines[k] ?? "").trim() !== "" && f !== undefined,
    );
  const keep = (line: string) => line;
  if (!pairs.some(([g, f]) => g.includes("\t") !== f.includes("\t"))) return keep;
  const added = ops.filter((op) => op.kind === "+").map((op) => op.text);
  const convert = indentConverter(pairs, added);
  if (!convert) return keep;
  return (line) => (line.trim() === "" ? line : convert(indentOf(line)) + line.slice(indentOf(line).length));
}
