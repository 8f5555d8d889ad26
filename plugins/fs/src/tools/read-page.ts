import { DEFAULT_MAX_LINES, formatSize, truncateHead } from "@clawtools/core";

// How one read call fills its budget, as OpenClaw 9.6 does it (agent-tools.read.ts and
// sessions/tools/read-page.ts): pages of at most 2000 lines are joined while they fit the call's
// byte budget (at most four of them), so a small file comes whole however many lines it has; a
// cut ends with "[Read output capped at 32KB for this call. Use offset=N to continue.]".

/** OpenClaw 9.6's read budget for one call when the model's context window is not known. */
export const READ_PAGE_MAX_BYTES = 32 * 1024;
const MAX_PAGES = 4;

/** Where the next call starts: a line, or a character position inside a long line. */
export type ReadContinuation =
  | { kind: "line"; offset: number; limit?: number }
  | { kind: "cursor"; offset: number; cursor: number; limit?: number };

/**
 * The text from the call's start (line `startLine`, `cursor` characters in) onwards, as far as
 * the budget can reach: whole when `complete`, else longer than the budget in bytes or lines.
 */
export interface ReadWindow {
  text: string;
  complete: boolean;
  /** Lines in the file (a final newline ends the last line). */
  totalLines: number;
  /** The start line's length in characters, whole (for the notice a cut inside it would need). */
  startLineChars: number;
}

export interface ReadPage {
  /** What the model reads before the notice (the content, or "File contains N blank lines."). */
  shown: string;
  /** The notice saying how to go on, "" when the file was read to its end. */
  notice: string;
  /** The file text the page holds. */
  content: string;
  continuation?: ReadContinuation;
  /** Lines begun in this page (a partial line counts). */
  outputLines: number;
  /** What stopped the page, when something did. */
  truncatedBy?: "lines" | "bytes";
}

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

/** OpenClaw's notice; "32KB" for 32768 (its formatSize without the ".0"). */
export function continuationNotice(next: ReadContinuation, maxBytes: number): string {
  const cursor = next.kind === "cursor" ? `, cursor=${next.cursor}` : "";
  const limit = next.limit === undefined ? "" : `, limit=${next.limit}`;
  const size = formatSize(maxBytes).replace(/\.0(?=KB)/, "");
  return `\n\n[Read output capped at ${size} for this call. Use offset=${next.offset}${cursor}${limit} to continue.]`;
}

/** The longest prefix within `maxBytes` UTF-8 bytes (OpenClaw's truncateUtf8Prefix). */
function utf8Prefix(value: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  if (value.length <= maxBytes && utf8(value) <= maxBytes) return value;
  const bytes = Buffer.from(value.slice(0, maxBytes));
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

interface PageInput {
  /** The selected text: from the start position to the end of the selection. */
  content: string;
  startLine: number;
  /** The selection's last line. */
  endLine: number;
  totalLines: number;
  cursor: number;
  /** Lines selected because the caller gave a `limit`. */
  limit?: number | undefined;
  /** A continuation already decided (its notice then replaces "N more lines"). */
  continuation?: ReadContinuation | undefined;
  /** Length of the selection's first line, whole (it may run past `content`). */
  firstLineChars: number;
  /** The call's budget, as its notices name it. */
  maxBytes: number;
  /** What the page may hold: the budget less a note said before it. */
  pageMaxBytes: number;
}

/** One bounded page of a selection (OpenClaw's createBoundedReadTextPage, adaptive). */
function boundPage(p: PageInput): ReadPage {
  const remaining = p.totalLines - p.endLine;
  const limitNotice = p.continuation
    ? continuationNotice(p.continuation, p.maxBytes)
    : p.limit !== undefined && remaining > 0
      ? `\n\n[${remaining} more line${remaining === 1 ? "" : "s"} in file. Use offset=${p.endLine + 1} to continue.]`
      : "";
  const whole = (content: string): ReadPage => ({
    shown: content,
    notice: limitNotice,
    content,
    outputLines: p.endLine - p.startLine + 1,
    ...(limitNotice
      ? {
          continuation: p.continuation ?? { kind: "line", offset: p.endLine + 1, limit: p.limit },
          truncatedBy: "lines",
        }
      : {}),
  });
  if (p.endLine - p.startLine < DEFAULT_MAX_LINES && utf8(p.content) + utf8(limitNotice) <= p.pageMaxBytes)
    return whole(p.content);
  const limitPart = p.limit === undefined ? {} : { limit: p.limit };
  // room for the longest notice this page could end with
  const reserved = Math.max(
    utf8(
      continuationNotice(
        { kind: "cursor", offset: p.startLine, cursor: p.cursor + p.firstLineChars, ...limitPart },
        p.maxBytes,
      ),
    ),
    utf8(continuationNotice({ kind: "line", offset: p.totalLines + 1, ...limitPart }, p.maxBytes)),
  );
  const budget = utf8(utf8Prefix(p.content, Math.max(0, p.pageMaxBytes - reserved)));
  // OpenClaw counts a final newline as the end of the last line, not as another line
  const body = p.content.endsWith("\n") ? p.content.slice(0, -1) : p.content;
  const cut = truncateHead(body, { maxBytes: budget });
  if (!cut.truncated && utf8(p.content) <= budget) return whole(p.content);
  let content: string;
  let next: ReadContinuation;
  if (cut.firstLineExceedsLimit) {
    const firstLine = p.content.split("\n", 1)[0] ?? "";
    content = utf8Prefix(firstLine, budget);
    next = { kind: "cursor", offset: p.startLine, cursor: p.cursor + content.length, ...limitPart };
  } else {
    content = cut.content;
    const offset = p.startLine + cut.outputLines;
    // every line fitted after all (a final newline was the byte over): the file is read
    if (p.limit === undefined && offset > p.totalLines) return whole(p.content);
    next = {
      kind: "line",
      offset,
      ...(p.limit === undefined ? {} : { limit: Math.max(1, p.endLine - offset + 1) }),
    };
  }
  return {
    shown: content,
    notice: continuationNotice(next, p.maxBytes),
    content,
    continuation: next,
    outputLines: next.kind === "cursor" ? 1 : cut.outputLines,
    truncatedBy: next.kind === "cursor" ? "bytes" : (cut.truncatedBy ?? "bytes"),
  };
}

/**
 * One call's answer over `window`: the first page bounded to `maxBytes`; without an explicit
 * `limit`, the following pages joined while the whole stays within `maxBytes` (up to four).
 * `noteBytes`: a note said before the answer, which the budget holds too.
 */
export function pageRead(
  window: ReadWindow,
  startLine: number,
  cursor: number,
  limit: number | undefined,
  maxBytes: number,
  noteBytes = 0,
): ReadPage {
  const { text, totalLines } = window;
  // the selection from `pos` (line `line`): to the end of `limit` lines, or to the end of the file
  const page = (pos: number, line: number, at: number) => {
    const endLine = limit === undefined ? totalLines : Math.min(line + limit - 1, totalLines);
    let end = pos;
    for (let ln = line; ; ln++) {
      const nl = text.indexOf("\n", end);
      if (nl === -1 || ln >= totalLines) {
        end = text.length;
        break;
      }
      if (ln >= endLine) {
        end = nl;
        break;
      }
      end = nl + 1;
    }
    // the window stops inside this selection (it runs past the budget, so its cut is seen)
    const open = !window.complete && end === text.length;
    const content = text.slice(pos, end);
    const nl = text.indexOf("\n", pos);
    const firstLineChars =
      line === startLine ? window.startLineChars - at : (nl === -1 ? text.length : nl) - pos;
    const input = {
      content,
      startLine: line,
      endLine,
      totalLines,
      cursor: at,
      limit: limit === undefined ? undefined : endLine - line + 1,
      firstLineChars,
      maxBytes,
      pageMaxBytes: maxBytes - noteBytes,
    };
    const bounded = boundPage(input);
    // a selection of empty lines only is named, not shown
    if (!open && !/[^\n]/.test(content)) {
      const count = endLine - line + 1;
      const what = line === 1 && endLine === totalLines ? "File" : "Selected range";
      bounded.shown = `${what} contains ${count} blank line${count === 1 ? "" : "s"}.`;
    }
    return { page: bounded, input };
  };
  const fitsAlone = (p: ReadPage) =>
    !p.continuation ||
    (noteBytes + utf8(p.shown) + utf8(continuationNotice(p.continuation, maxBytes)) <= maxBytes &&
      utf8(p.content) <= maxBytes);

  const first = page(0, startLine, cursor);
  if (limit !== undefined) {
    // an explicit limit is one page; its continuation's notice must fit too, or it is bounded again
    if (fitsAlone(first.page)) return first.page;
    const lines = first.page.content.split("\n").length;
    return boundPage({
      ...first.input,
      content: first.page.content,
      endLine: startLine + lines - 1,
      limit,
      continuation: first.page.continuation,
    });
  }
  let shown = "";
  let content = "";
  let previousNotice = "";
  let outputLines = 0;
  let pos = 0;
  let from: ReadContinuation =
    cursor > 0 ? { kind: "cursor", offset: startLine, cursor } : { kind: "line", offset: startLine };
  for (let n = 0; n < MAX_PAGES; n++) {
    const at = from.kind === "cursor" ? from.cursor : 0;
    const next = n === 0 ? first : page(pos, from.offset, at);
    const p = next.page;
    const delimiter = shown && p.shown && from.kind === "line" ? "\n" : "";
    const notice = p.continuation ? continuationNotice(p.continuation, maxBytes) : "";
    const joined = `${content}${delimiter}${p.content}`;
    const fits =
      noteBytes + utf8(shown) + delimiter.length + utf8(p.shown) + utf8(notice) <= maxBytes &&
      utf8(joined) <= maxBytes;
    if (!fits) {
      if (n === 0) return p;
      return {
        shown,
        notice: previousNotice,
        content,
        continuation: from,
        outputLines,
        truncatedBy: "bytes",
      };
    }
    shown += `${delimiter}${p.shown}`;
    content = joined;
    outputLines += p.outputLines;
    if (!p.continuation) return { shown, notice: "", content, outputLines };
    if (n === MAX_PAGES - 1)
      return { shown, notice, content, continuation: p.continuation, outputLines, truncatedBy: "lines" };
    previousNotice = notice;
    // the next page starts where this one's continuation points
    pos += p.content.length + (p.continuation.kind === "line" ? 1 : 0);
    from = p.continuation;
  }
  return first.page;
}
