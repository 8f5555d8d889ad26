import path from "node:path";
import { type FsBridge, ToolInputError } from "@clawtools/core";
import { throwIfAborted } from "../fs-env.js";
import { clip } from "../tools/messages.js";
import { makeGlobMatcher } from "./glob.js";
import type { GrepOutput } from "./grep-output.js";
import { createRegexWorker, type RegexWorker } from "./regex-worker.js";
import { walk } from "./walk.js";

export interface GrepQuery {
  /** Absolute path of the file or directory searched. */
  abs: string;
  isFile: boolean;
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  glob?: string;
  context: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function compileGrepPattern(query: Pick<GrepQuery, "pattern" | "literal" | "ignoreCase">): RegExp {
  try {
    return new RegExp(
      query.literal ? escapeRegExp(query.pattern) : query.pattern,
      query.ignoreCase ? "i" : "",
    );
  } catch (error) {
    // V8's message repeats the whole pattern: keep only the reason, and a short prefix of the input
    const reason = (error as Error).message.split(": ").at(-1);
    throw new ToolInputError(
      `Invalid regex pattern: ${reason} (pattern ${clip(JSON.stringify(query.pattern))}). Use literal=true to search for the text as is.`,
    );
  }
}

const READ_AHEAD = 32;
/** Files tested per worker round trip. */
const BATCH = 32;

/** A file is treated as binary (and skipped, like rg) when its first 8 KB hold a NUL byte. */
const isBinary = (data: Buffer) => data.subarray(0, 8192).includes(0);

/** The built-in engine: walks and reads through the bridge, so it works over any FsBridge. */
export async function grepWithBridge(
  bridge: FsBridge,
  query: GrepQuery,
  out: GrepOutput,
  signal?: AbortSignal,
  regexTimeoutMs?: number,
): Promise<void> {
  const re = compileGrepPattern(query);
  // a literal search cannot backtrack: only user regexes go to the worker
  const worker = query.literal ? undefined : createRegexWorker(re, regexTimeoutMs, signal);
  try {
    await search(bridge, query, out, re, worker, signal);
  } finally {
    await worker?.close();
  }
}

async function search(
  bridge: FsBridge,
  query: GrepQuery,
  out: GrepOutput,
  re: RegExp,
  worker: RegexWorker | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const globMatch = query.glob ? makeGlobMatcher(query.glob) : undefined;
  const files: Array<{ abs: string; label: string }> = [];
  if (query.isFile) files.push({ abs: query.abs, label: path.basename(query.abs) });
  else {
    for await (const entry of walk(bridge, query.abs, signal)) {
      if (entry.type === "file" && (!globMatch || globMatch(entry.rel)))
        files.push({ abs: entry.abs, label: entry.rel });
    }
  }

  // files are read ahead in parallel, tested a batch at a time (one worker round trip per
  // batch); output stays in walk order
  const reads = new Map<number, Promise<Buffer | null>>();
  const readAhead = (i: number) => {
    const file = files[i];
    if (file && !reads.has(i))
      reads.set(
        i,
        bridge.readFile({ filePath: file.abs }).catch(() => null),
      );
  };
  for (let i = 0; i < READ_AHEAD; i++) readAhead(i);
  for (let from = 0; from < files.length && !out.limited; from += BATCH) {
    throwIfAborted(signal);
    const batch: Array<{ label: string; lines: string[] }> = [];
    for (let fileIndex = from; fileIndex < Math.min(files.length, from + BATCH); fileIndex++) {
      readAhead(fileIndex);
      const data = await reads.get(fileIndex)!;
      reads.delete(fileIndex);
      readAhead(fileIndex + READ_AHEAD);
      if (!data || isBinary(data)) continue;
      const lines = data.toString("utf8").replace(/\r\n/g, "\n").split("\n");
      // a final newline ends the last line; it does not start another
      if (lines.length > 1 && lines.at(-1) === "") lines.pop();
      batch.push({ label: files[fileIndex]!.label, lines });
    }
    if (batch.length === 0) continue;
    const hits = worker
      ? await worker.matchFiles(
          batch.map((f) => f.lines),
          batch.length === 1 ? batch[0]!.label : `${batch[0]!.label} and ${batch.length - 1} more files`,
        )
      : batch.map((f) => f.lines.map((l) => (re.test(l) ? 1 : 0)));
    throwIfAborted(signal);
    batch.forEach((file, b) => {
      if (!out.limited) report(file.label, file.lines, hits[b]!, query.context, out);
    });
  }
}

/** One file's matches and context lines, in pi's order, stopping at the match limit. */
function report(
  label: string,
  lines: string[],
  hits: ArrayLike<number>,
  context: number,
  out: GrepOutput,
): void {
  let lastShown = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!hits[i]) continue;
    if (out.overLimit()) break;
    const from = Math.max(lastShown + 1, i - context);
    for (let k = from; k < i; k++) out.context(label, k + 1, lines[k]!);
    out.match(label, i + 1, lines[i]!);
    lastShown = i;
    for (let k = i + 1; k <= Math.min(lines.length - 1, i + context); k++) {
      if (hits[k]) break;
      out.context(label, k + 1, lines[k]!);
      lastShown = k;
    }
  }
}
