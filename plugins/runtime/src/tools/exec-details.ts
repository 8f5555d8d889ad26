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
  /** Output was cut at the retention cap (the text says so at the top). */
  truncated?: boolean;
}

/** OpenClaw's note at the top of output cut at the retention cap. */
export const RETENTION_CAP_NOTE =
  "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";
