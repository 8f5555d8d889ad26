import type { RunOutcome } from "./interfaces.js";
import type { RunRecord, RunStatus, TranscriptMessage } from "./types.js";

/** What a sessions service tells its listeners. */
export interface SessionsEvents {
  /** A completion announce landed in the requester's session. */
  announce: [{ run: RunRecord; message: TranscriptMessage }];
  /** A run finished (any status). */
  runEnded: [RunRecord];
}

/** A runner's outcome as the run status recorded for it. */
export const STATUS: Record<RunOutcome["status"], RunStatus> = {
  ok: "done",
  error: "failed",
  timeout: "timeout",
  aborted: "killed",
  running: "running",
};
/** The message a yielded session's next turn starts with (the completion event is just above it). */
export const YIELD_RESUMED =
  "[sessions_yield] A sub-agent result arrived (the completion event above). Continue your task.";
