import type { SessionOutput } from "./session-output.js";
import { countNewlines, readFileLines } from "./spill.js";

/** Room kept for the notice between head and tail. */
const NOTICE_RESERVE = 600;
/** `log` without offset/limit shows this many last lines (OpenClaw's default). */
export const LOG_DEFAULT_LINES = 200;

const logHint = (sessionId: string, offset: number, limit: number) =>
  `process action=log sessionId=${sessionId} offset=${offset} limit=${limit}`;

/** Where cut output can still be read, or why it cannot. */
function whereToRead(out: SessionOutput, sessionId: string, offset: number, limit: number): string {
  const spill = out.spill;
  if (spill && !spill.capped)
    return `the whole output (${out.total} characters, ${out.totalLines} lines) is in ${spill.path}; read the missing lines with ${logHint(sessionId, offset, limit)}`;
  if (spill && offset < spill.newlines) {
    const kept = Math.min(limit, spill.newlines - offset);
    return `the first ${spill.chars} characters of the output are in ${spill.path} (output past that was not kept: ${out.spillProblem ?? "the spill file limit"}); read what is kept with ${logHint(sessionId, offset, kept)}`;
  }
  return `they were not kept (${out.spillProblem ?? "the spill file limit was reached"}) and cannot be recovered`;
}

export interface CutView {
  text: string;
  truncated: boolean;
  omittedChars?: number;
  omittedLines?: number;
  outputFile?: string;
}

/**
 * What an exec result shows: the whole output, or past the limit its head and tail (each cut
 * on a line boundary) around a notice that names what was left out and how to read it.
 */
export function resultView(out: SessionOutput, sessionId: string): CutView {
  if (!out.overflowed) return { text: out.tail.value.trim(), truncated: false };
  let head = out.head;
  const headEnd = head.lastIndexOf("\n");
  const headCut = headEnd === -1;
  if (!headCut) head = head.slice(0, headEnd + 1);
  let tail = out.tail.tail(out.maxChars - head.length - NOTICE_RESERVE);
  const tailStart = tail.indexOf("\n");
  const tailCut = tailStart === -1 || tailStart === tail.length - 1;
  if (!tailCut) tail = tail.slice(tailStart + 1);
  const firstOmitted = countNewlines(head);
  const tailLine = out.newlines - countNewlines(tail);
  const omittedLines = (tailCut ? tailLine + 1 : tailLine) - firstOmitted;
  const omittedChars = out.total - head.length - tail.length;
  const midLine = headCut || tailCut ? " (the text next to this notice is cut mid-line)" : "";
  const notice = `[... ${omittedChars} characters (${omittedLines} lines) left out here${midLine}; ${whereToRead(out, sessionId, firstOmitted, omittedLines)}]`;
  const text = `${head.trimStart()}${headCut ? "\n" : ""}${notice}\n${tail.trimEnd()}`;
  return {
    text,
    truncated: true,
    omittedChars,
    omittedLines,
    ...(out.spill ? { outputFile: out.spill.path } : {}),
  };
}

/**
 * Unread output for `poll`: what the unread buffer kept, from a line boundary, with a notice
 * naming the characters and lines left out before it and how to read them.
 */
export function pollView(out: SessionOutput, sessionId: string): { text: string; omittedChars: number } {
  let body = out.pending.take();
  let omittedChars = out.total - body.length - out.readChars;
  let notice = "";
  if (omittedChars > 0) {
    const nl = body.indexOf("\n");
    const midLine = nl === -1 || nl === body.length - 1;
    if (!midLine) {
      body = body.slice(nl + 1);
      omittedChars += nl + 1;
    }
    const from = out.readLine;
    const bodyLine = out.newlines - countNewlines(body);
    const lines = (midLine ? bodyLine + 1 : bodyLine) - from;
    const readable = out.complete || from >= out.memoryLines().firstLine;
    const how = readable
      ? `read them with ${logHint(sessionId, from, lines)}`
      : whereToRead(out, sessionId, from, lines);
    notice = `[${omittedChars} earlier characters (${lines} lines) of unread output were left out (poll keeps the last ${out.pending.max} unread characters); ${how}]${midLine ? " The text below starts mid-line." : ""}\n`;
  }
  out.readChars = out.total;
  out.readLine = out.newlines;
  return { text: notice + body, omittedChars };
}

export interface LogView {
  text: string;
  shown: number;
}

/** Splits text into lines (a trailing `\n` ends the last line, it does not start another). */
function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/**
 * `log`: lines `offset`…`offset+limit` (0-based) of the whole stream, from memory or the spill
 * file, at most one output limit of characters; every gap (lines not kept, the page limit, a cut
 * line) is named.
 */
export async function logView(
  out: SessionOutput,
  offset: number | undefined,
  limit: number | undefined,
): Promise<LogView> {
  const total = out.totalLines;
  if (total === 0) return { text: "(no output)", shown: 0 };
  const defaultPage = offset === undefined && limit === undefined;
  const start = defaultPage ? Math.max(0, total - LOG_DEFAULT_LINES) : (offset ?? 0);
  const end = limit === undefined ? total : Math.min(total, start + limit);
  if (start >= total)
    return {
      text: `[offset ${start} is past the end: the output has ${total} lines (0–${total - 1})]`,
      shown: 0,
    };
  const budget = out.maxChars;
  const parts: string[] = [];
  const notes: string[] = [];
  let used = 0;
  let shown = 0;
  let stopped: number | undefined;
  const mem = out.memoryLines();
  const fileEnd = out.spill ? (out.spill.capped ? out.spill.newlines : total) : 0;
  // lines before the memory's first line come from the spill file, if it has them
  const fromFileEnd = Math.min(end, mem.firstLine, fileEnd);
  if (start < fromFileEnd && out.spill) {
    const read = await readFileLines(out.spill.path, start, fromFileEnd, budget);
    parts.push(...read.lines);
    shown += read.lines.length;
    used += read.lines.reduce((n, l) => n + l.length + 1, 0);
    if (read.cutLine) notes.push(`[line ${start} is longer than the ${budget}-character page and was cut]`);
    stopped = read.stoppedAt;
  }
  const lostFrom = Math.max(start, fileEnd);
  const lostTo = Math.min(end, mem.firstLine);
  if (stopped === undefined && lostFrom < lostTo) {
    parts.push(
      `[lines ${lostFrom}–${lostTo - 1} were not kept (${out.spillProblem ?? "past the spill file limit"}) and cannot be recovered]`,
    );
  }
  if (stopped === undefined && end > mem.firstLine) {
    const lines = splitLines(mem.text);
    for (let i = Math.max(start, mem.firstLine); i < end; i++) {
      const line = lines[i - mem.firstLine] ?? "";
      if (used + line.length > budget) {
        if (shown === 0) {
          parts.push(line.slice(0, budget));
          notes.push(`[line ${i} is longer than the ${budget}-character page and was cut]`);
          shown++;
          stopped = i + 1 < end ? i + 1 : undefined;
        } else stopped = i;
        break;
      }
      parts.push(line);
      used += line.length + 1;
      shown++;
    }
  }
  if (stopped !== undefined && stopped < end)
    notes.push(`[page stopped at the ${budget}-character limit; continue with offset=${stopped}]`);
  else if (defaultPage && total > LOG_DEFAULT_LINES)
    notes.push(`[showing last ${LOG_DEFAULT_LINES} of ${total} lines; pass offset/limit to page]`);
  const body = parts.join("\n") || "(no output)";
  return { text: notes.length ? `${body}\n\n${notes.join("\n")}` : body, shown };
}
