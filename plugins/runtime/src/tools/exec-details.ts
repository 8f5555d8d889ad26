/** What an exec result carries besides its text. */
export interface ExecDetails {
  status: "completed" | "failed" | "running";
  exitCode?: number | null;
  exitSignal?: string | null;
  durationMs?: number;
  sessionId?: string;
  pid?: number;
  startedAt?: number;
  cwd: string;
  tail?: string;
  aggregated?: string;
  /** Output passed the limit: the text shows its head and tail around a notice. */
  truncated?: boolean;
  /** With `truncated`: the whole stream's size, what the text leaves out, and the spill file. */
  totalChars?: number;
  totalLines?: number;
  omittedChars?: number;
  omittedLines?: number;
  outputFile?: string;
  /** With `runtime.sandbox` set: `bwrap`, or `none (…why…)` when auto fell back to running unsandboxed. */
  sandbox?: string;
}
