import { StringDecoder } from "node:string_decoder";
import type { FsBridge } from "@clawtools/core";

export interface LinePage {
  /**
   * Lines from the start line on (CRLF read as LF, a leading BOM dropped, the start line from
   * its `cursor`-th character), stopping once `maxLines` or `maxBytes` is exceeded. When the
   * page reaches a final newline, the empty string after it is the last element.
   */
  lines: string[];
  /** Line count: a final newline ends the last line, it does not start another (a 100-line file is 100). */
  totalLines: number;
  /** Byte size of the start line (for the oversized-line notice). */
  startLineBytes: number;
  /** Length of the start line in UTF-16 code units, the unit `cursor` counts in. */
  startLineChars: number;
  /** Every line from the start line to the end of the file is in `lines` (nothing was cut off). */
  complete: boolean;
  /** `cursor` falls between the two halves of a character outside the BMP (an emoji, say). */
  cursorSplitsPair: boolean;
}

/**
 * Streams a file and keeps only the lines a page needs, counting the rest: a huge file is
 * never held in memory. Falls back to readFile for bridges without readStream.
 */
export async function readLinePage(
  bridge: Pick<FsBridge, "readFile" | "readStream">,
  filePath: string,
  start: number,
  maxLines: number,
  maxBytes: number,
  signal?: AbortSignal,
  /** The file's line total when already known: reading stops once the page is complete. */
  knownTotal?: number,
  /** Characters of the start line to skip (a continuation inside a long line). */
  cursor = 0,
): Promise<LinePage> {
  const chunks: AsyncIterable<Buffer> = bridge.readStream
    ? bridge.readStream({ filePath, ...(signal ? { signal } : {}) })
    : (async function* () {
        yield await bridge.readFile({ filePath });
      })();
  const decoder = new StringDecoder("utf8");
  const lines: string[] = [];
  let index = 0; // current line number (0-based)
  let partial = ""; // kept text of the current line (only while collecting)
  let partialBytes = 0;
  let keptBytes = 0;
  let collecting = true;
  let startLineBytes = 0;
  let startLineChars = 0;
  let toSkip = cursor; // characters of the start line still to skip
  let cursorSplitsPair = false;
  let atFileStart = true;
  let lastByte = -1; // the file's last byte: a final newline ends the last line
  const wants = () => collecting && index >= start;
  const feed = (input: string) => {
    let piece = input;
    if (atFileStart && piece.length > 0) {
      atFileStart = false;
      if (piece.startsWith("\ufeff")) piece = piece.slice(1);
    }
    const bytes = Buffer.byteLength(piece);
    if (index === start) {
      startLineBytes += bytes;
      startLineChars += piece.length;
      if (toSkip > 0) {
        const skipped = Math.min(toSkip, piece.length);
        toSkip -= skipped;
        // the decoder never ends a piece inside a pair, so both halves are in this piece
        if (toSkip === 0 && isHigh(piece.charCodeAt(skipped - 1)) && isLow(piece.charCodeAt(skipped)))
          cursorSplitsPair = true;
        piece = piece.slice(skipped);
      }
    }
    if (!wants()) return;
    // an oversized line keeps just enough text to show its first part
    if (partialBytes <= maxBytes)
      partial += piece.length > maxBytes + 1 ? piece.slice(0, maxBytes + 1) : piece;
    partialBytes += Buffer.byteLength(piece);
  };
  const endLine = () => {
    if (index === start && partial.endsWith("\r")) startLineChars--;
    if (wants()) {
      lines.push(partial.endsWith("\r") ? partial.slice(0, -1) : partial);
      keptBytes += partialBytes + 1;
      if (lines.length > maxLines || keptBytes > maxBytes + 1) collecting = false;
    }
    partial = "";
    partialBytes = 0;
    index++;
  };
  let counting = false; // past the page: only newlines are counted, on raw bytes
  for await (const chunk of chunks) {
    if (chunk.length > 0) lastByte = chunk[chunk.length - 1]!;
    if (counting) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) index++;
      continue;
    }
    if (!collecting && index > start && knownTotal !== undefined) {
      return {
        lines,
        totalLines: knownTotal,
        startLineBytes,
        startLineChars,
        complete: false,
        cursorSplitsPair,
      };
    }
    if (!collecting && index > start) {
      // the page is complete; the decoder may hold a partial character, which holds no newline
      counting = true;
      decoder.end();
      partial = "";
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) index++;
      continue;
    }
    const text = decoder.write(chunk);
    let from = 0;
    for (let nl = text.indexOf("\n", from); nl !== -1; nl = text.indexOf("\n", from)) {
      feed(text.slice(from, nl));
      endLine();
      from = nl + 1;
    }
    feed(text.slice(from));
  }
  if (!counting) feed(decoder.end());
  if (wants()) lines.push(partial.endsWith("\r") ? partial.slice(0, -1) : partial);
  // an empty file has no lines; one ending in a newline has as many lines as newlines
  const totalLines = lastByte === -1 || lastByte === 10 ? index : index + 1;
  return { lines, totalLines, startLineBytes, startLineChars, complete: collecting, cursorSplitsPair };
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
