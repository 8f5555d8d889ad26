import { ToolInputError } from "@clawtools/core";
import { clip } from "../tools/messages.js";
import type { UpdateChunk } from "./parse.js";
import { seekSequence } from "./seek.js";

/** The new content of a file after its update chunks; throws (changing nothing) when a chunk does not fit. */
export function applyUpdateChunks(original: string, chunks: UpdateChunk[], displayPath: string): string {
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
    // context lines keep the file's own text (the patch may have matched them loosely)
    const insert: string[] = [];
    let oldIndex = 0;
    for (const op of ops) {
      if (op.kind === " ") insert.push(lines[at + oldIndex++]!);
      else if (op.kind === "-") oldIndex++;
      else insert.push(op.text);
    }
    replacements.push({ at, remove: oldLines.length, insert });
    cursor = at + oldLines.length;
  }
  replacements.sort((a, b) => a.at - b.at);
  for (const r of [...replacements].reverse()) lines.splice(r.at, r.remove, ...r.insert);
  if (!lines.length) return "";
  return finalNewline ? `${lines.join("\n")}\n` : lines.join("\n");
}
