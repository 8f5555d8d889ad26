import {
  type AgentToolResult,
  DEFAULT_MAX_BYTES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  type TruncationResult,
  truncateHead,
  truncateLine,
} from "@clawtools/core";

export interface GrepDetails {
  matchLimitReached?: number;
  truncation?: TruncationResult;
  linesTruncated?: boolean;
}

/**
 * Collects grep lines in pi's format (`path:N: text` for matches, `path-N- text` for context)
 * whichever engine found them, and renders the result with its notices.
 */
export class GrepOutput {
  private readonly lines: string[] = [];
  private matchCount = 0;
  private linesTruncated = false;
  /** Set when a match beyond the limit was seen: the search should stop. */
  limited = false;

  constructor(readonly limit: number) {}

  /** Call on finding a match, before recording it: true (and `limited` set) when it is one too many. */
  overLimit(): boolean {
    if (this.atLimit()) this.limited = true;
    return this.limited;
  }

  /** True once `limit` matches are recorded. */
  atLimit(): boolean {
    return this.matchCount >= this.limit;
  }

  match(label: string, line: number, text: string): void {
    this.matchCount++;
    this.push(label, line, ":", text);
  }

  context(label: string, line: number, text: string): void {
    this.push(label, line, "-", text);
  }

  private push(label: string, line: number, sep: ":" | "-", text: string): void {
    const cut = truncateLine(text, GREP_MAX_LINE_LENGTH);
    if (cut.wasTruncated) this.linesTruncated = true;
    this.lines.push(`${label}${sep}${line}${sep} ${cut.text}`);
  }

  toResult(): AgentToolResult<GrepDetails | undefined> {
    if (this.matchCount === 0)
      return { content: [{ type: "text", text: "No matches found" }], details: undefined };
    const truncation = truncateHead(this.lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
    const notices: string[] = [];
    const details: GrepDetails = {};
    if (this.limited) {
      notices.push(
        `${this.limit} matches limit reached. Use limit=${this.limit * 2} for more, or refine pattern`,
      );
      details.matchLimitReached = this.limit;
    }
    if (truncation.truncated) {
      notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
      details.truncation = truncation;
    }
    if (this.linesTruncated) {
      notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
      details.linesTruncated = true;
    }
    const text = truncation.content + (notices.length ? `\n\n[${notices.join(". ")}]` : "");
    return { content: [{ type: "text", text }], details: notices.length ? details : undefined };
  }
}
