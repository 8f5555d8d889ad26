/** Output caps shared by every tool that returns file or command text (pi's limits). */
export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

export interface TruncationResult {
  content: string;
  truncated: boolean;
  /** Which cap was hit first; null when nothing was cut. */
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** truncateTail only: the last line alone was over the byte cap and only its tail is kept. */
  lastLinePartial: boolean;
  /** truncateHead only: the first line alone is over the byte cap, so nothing is returned. */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

function untouched(content: string, lines: number, bytes: number, maxLines: number, maxBytes: number) {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  } satisfies TruncationResult;
}

/** A cut's caps and the content's lines and size; `kept` set when it fits both caps untouched. */
function measure(content: string, options: TruncationOptions) {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = byteLength(content);
  const lines = content.split("\n");
  const kept =
    lines.length <= maxLines && totalBytes <= maxBytes
      ? untouched(content, lines.length, totalBytes, maxLines, maxBytes)
      : undefined;
  // a cut result's totals and caps, with the flag of its direction in its place
  const cut = <F extends object>(flag: F) => ({
    truncated: true,
    totalLines: lines.length,
    totalBytes,
    ...flag,
    maxLines,
    maxBytes,
  });
  return { lines, maxBytes, maxLines, kept, cut };
}

/**
 * How many whole lines fit both caps, taken from the start (or from the end), and which cap
 * stopped the count (the lines between them cost one newline byte each).
 */
function fitLines(lines: string[], fromEnd: boolean, maxLines: number, maxBytes: number) {
  let used = 0;
  let kept = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  while (kept < lines.length && kept < maxLines) {
    const cost = byteLength(lines[fromEnd ? lines.length - 1 - kept : kept]!) + (kept > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    used += cost;
    kept++;
  }
  return { kept, truncatedBy };
}

/** Keeps whole lines from the start until either cap is reached. */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  const { lines, maxLines, maxBytes, kept: whole, cut } = measure(content, options);
  if (whole) return whole;
  const base = cut({ lastLinePartial: false });
  if (byteLength(lines[0]!) > maxBytes) {
    return {
      ...base,
      content: "",
      truncatedBy: "bytes",
      outputLines: 0,
      outputBytes: 0,
      firstLineExceedsLimit: true,
    };
  }
  const { kept, truncatedBy } = fitLines(lines, false, maxLines, maxBytes);
  const out = lines.slice(0, kept).join("\n");
  return {
    ...base,
    content: out,
    truncatedBy,
    outputLines: kept,
    outputBytes: byteLength(out),
    firstLineExceedsLimit: false,
  };
}

/** Keeps the last `maxBytes` of a string, starting on a UTF-8 character boundary. */
function tailBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  let start = Math.max(0, buf.length - maxBytes);
  // skip continuation bytes (10xxxxxx) so the cut lands on a character start
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString("utf8");
}

/** Keeps whole lines from the end; a single oversized last line keeps its tail bytes. */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  const { lines, maxLines, maxBytes, kept: whole, cut } = measure(content, options);
  if (whole) return whole;
  const base = cut({ firstLineExceedsLimit: false });
  const { kept, truncatedBy } = fitLines(lines, true, maxLines, maxBytes);
  // the last line alone is over the byte cap: its tail is kept
  const partial = kept === 0 && truncatedBy === "bytes";
  const out = partial
    ? tailBytes(lines[lines.length - 1]!, maxBytes)
    : lines.slice(lines.length - kept).join("\n");
  return {
    ...base,
    content: out,
    truncatedBy,
    outputLines: partial ? 1 : kept,
    outputBytes: byteLength(out),
    lastLinePartial: partial,
  };
}

/** Cuts one line at `maxChars`, appending a marker (so the result may be longer than the cap). */
export function truncateLine(
  line: string,
  maxChars = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}

/** `512B`, `50.0KB`, `1.5MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
