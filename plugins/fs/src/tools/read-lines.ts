import { StringDecoder } from "node:string_decoder";
import type { FsBridge } from "@clawtools/core";

export interface LinePage {
  /** Lines from the start line on, stopping once `maxLines` or `maxBytes` is exceeded. */
  lines: string[];
  /** Total line count, `split("\n")` semantics (a trailing newline adds an empty line). */
  totalLines: number;
  /** Byte size of the start line (for the oversized-line notice). */
  startLineBytes: number;
}

/**
 * Streams a file and keeps only the lines a page needs, counting the rest: a huge file is
 * never held in memory. Falls back to readFile for bridges without readStream.
 */
export async function readLinePage(
  bridge: FsBridge,
  filePath: string,
  start: number,
  maxLines: number,
  maxBytes: number,
  signal?: AbortSignal,
  /** The file's line total when already known: reading stops once the page is complete. */
  knownTotal?: number,
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
  const wants = () => collecting && index >= start;
  const feed = (piece: string) => {
    const bytes = Buffer.byteLength(piece);
    if (index === start) startLineBytes += bytes;
    if (!wants()) return;
    // an oversized line keeps just enough text to show it is over the cap
    if (partialBytes <= maxBytes)
      partial += piece.length > maxBytes + 1 ? piece.slice(0, maxBytes + 1) : piece;
    partialBytes += bytes;
  };
  const endLine = () => {
    if (wants()) {
      lines.push(partial);
      keptBytes += partialBytes + 1;
      if (lines.length > maxLines || keptBytes > maxBytes + 1) collecting = false;
    }
    partial = "";
    partialBytes = 0;
    index++;
  };
  let counting = false; // past the page: only newlines are counted, on raw bytes
  for await (const chunk of chunks) {
    if (counting) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) index++;
      continue;
    }
    if (!collecting && index > start && knownTotal !== undefined) {
      return { lines, totalLines: knownTotal, startLineBytes };
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
  if (wants()) lines.push(partial);
  return { lines, totalLines: index + 1, startLineBytes };
}
