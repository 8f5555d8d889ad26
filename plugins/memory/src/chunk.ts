export interface Chunk {
  text: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface ChunkOptions {
  /** Target size in tokens (≈ 4 characters each); default 400. */
  tokens?: number;
  /** Overlap with the previous chunk in tokens; default 80. */
  overlap?: number;
}

const CHARS_PER_TOKEN = 4;

/** Blocks that should not be split: a heading starts a new block, as does a blank line. */
function blocks(lines: string[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let start = -1;
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const boundary = !inFence && (line.trim() === "" || /^#{1,6}\s/.test(line));
    if (boundary && start !== -1 && (line.trim() === "" || i > start)) {
      out.push({ start, end: i - 1 });
      start = -1;
    }
    if (line.trim() !== "" && start === -1) start = i;
  });
  if (start !== -1) out.push({ start, end: lines.length - 1 });
  return out;
}

/**
 * Cuts markdown into chunks of about `tokens` tokens along its structure (headings, paragraphs,
 * fenced code kept whole where possible), each overlapping the previous by about `overlap`
 * tokens, each with its line range. A block longer than a chunk is cut by lines.
 */
export function chunkMarkdown(content: string, options: ChunkOptions = {}): Chunk[] {
  const maxChars = (options.tokens ?? 400) * CHARS_PER_TOKEN;
  const overlapChars = (options.overlap ?? 80) * CHARS_PER_TOKEN;
  const lines = content.split("\n");
  // break oversized blocks into line runs that fit
  const units: Array<{ start: number; end: number }> = [];
  for (const block of blocks(lines)) {
    let start = block.start;
    let size = 0;
    for (let i = block.start; i <= block.end; i++) {
      size += lines[i]!.length + 1;
      if (size > maxChars && i > start) {
        units.push({ start, end: i - 1 });
        start = i;
        size = lines[i]!.length + 1;
      }
    }
    units.push({ start, end: block.end });
  }
  const chunks: Chunk[] = [];
  const sizeOf = (u: { start: number; end: number }) => lines.slice(u.start, u.end + 1).join("\n").length + 1;
  let i = 0;
  while (i < units.length) {
    let j = i;
    let size = sizeOf(units[i]!);
    while (j + 1 < units.length && size + sizeOf(units[j + 1]!) <= maxChars) size += sizeOf(units[++j]!);
    const startLine = units[i]!.start;
    const endLine = units[j]!.end;
    chunks.push({
      text: lines.slice(startLine, endLine + 1).join("\n"),
      startLine: startLine + 1,
      endLine: endLine + 1,
    });
    if (j + 1 >= units.length) break;
    // the next chunk starts with the trailing units of this one that fit in the overlap
    let k = j + 1;
    let carried = 0;
    while (k - 1 > i && carried + sizeOf(units[k - 1]!) <= overlapChars) carried += sizeOf(units[--k]!);
    i = k;
  }
  return chunks;
}
