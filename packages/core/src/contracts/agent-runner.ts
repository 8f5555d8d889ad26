/** A run to start: a message into a session, run by the app's agent loop. */
export interface StartRunRequest {
  sessionKey: string;
  message: string;
  /** Added to the runner's system prompt for this run (the sub-agent context). */
  extraSystemPrompt?: string;
  /** `provider/model` for this run (a session override or the spawn's `model`). */
  model?: string;
  /** The run is aborted after this long (0 or undefined: no limit). */
  timeoutMs?: number;
  /** runtime=acp: the ACP session to resume instead of starting a new one (other runners ignore it). */
  resumeSessionId?: string;
  /** runtime=acp: the working directory of the harness session, inside the workspace. */
  cwd?: string;
}

export interface RunOutcome {
  /** `running`: `wait` gave up before the run ended (the run goes on); `timeout`: the run's own time limit ended it. */
  status: "ok" | "error" | "timeout" | "aborted" | "running";
  /** The run's final assistant text. */
  reply?: string;
  error?: string;
  /** The run ended its turn through sessions_yield (it waits for its sub-agents' results). */
  yielded?: boolean;
}

/**
 * Runs agent turns in sessions: the app's own agent loop (pi-agent-core, the AI SDK, a Gateway).
 * `wait` answers `{status: "running"}` when the run is still going after `timeoutMs`.
 */
export interface AgentRunner {
  /**
   * The sessions_spawn runtimes this runner can run; absent means `["subagent"]`. A runner that
   * also routes `agent:<id>:acp:<uuid>` sessions to an ACP harness (see @clawtools/runner-acp's
   * `withAcpSessions`) lists `"acp"`.
   */
  readonly runtimes?: ReadonlyArray<"subagent" | "acp">;
  /**
   * Starts a run; resolves once the run's message is in the session (what sessions_send and
   * sessions_spawn acknowledge survives a kill -9 right after), or the run ended without it.
   */
  start(request: StartRunRequest): Promise<{ runId: string }>;
  wait(runId: string, timeoutMs: number): Promise<RunOutcome>;
  abort(runId: string): Promise<void>;
  /** Injects a message into a running run; false when the run is not running. */
  steer(runId: string, message: string): Promise<boolean>;
  /**
   * Ends the current turn of the session's live run once the tool call in flight returns
   * (sessions_yield); the run's outcome then says `yielded`. Absent when the loop cannot.
   */
  onYield?(sessionKey: string, message: string): Promise<void>;
  /**
   * Whether a run of this runner is live (or starting) in the session, so its turn can be yielded;
   * sessions_yield is offered only there. Absent: every session can (a runner that decides itself).
   */
  canYield?(sessionKey: string): boolean;
}
