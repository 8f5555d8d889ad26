/**
 * The contract between a host (clawtools' code surface) and the sandbox: the host starts a
 * program, then steps it. A step runs guest code until the guest finishes or waits on host
 * work; the host answers the requests it made (`settled`) in a later step. Everything that
 * crosses is JSON text or plain data: no object of either side is ever reachable from the other.
 */

/** The limits a run is held to. Crossing one fails the run closed, naming the limit. */
export type SandboxLimits = {
  /** QuickJS heap the guest may allocate (bytes). */
  memoryLimitBytes: number;
  /** Host requests in flight at once; more wait in the guest's queue. */
  maxPendingCalls: number;
  /** Requests waiting in the guest's queue beyond the in-flight ones. */
  maxQueuedCalls: number;
  /** Output entries (text/json/console) kept across the run, in encoded JSON bytes. */
  maxOutputBytes: number;
  /** One request's arguments, in encoded JSON bytes. */
  maxRequestBytes: number;
  /**
   * A final object or array is sent whole up to this many bytes even past `maxOutputBytes`, so
   * the host can keep it for later cells (default: `maxOutputBytes`, a prefix past it).
   */
  maxValueBytes?: number;
};

export type SandboxProgram = {
  /**
   * Guest JavaScript run after the sandbox's controller and before `code`: the API the guest
   * sees. It reaches the host through `__sandboxBridge.request(method, args)` (captured and
   * deleted by the prelude) and reads the `globals` it was given the same way.
   */
  prelude: string;
  /** The model's JavaScript: the body of an async function (top-level await and return work). */
  code: string;
  /** Plain JSON data set as globals before the prelude runs. */
  globals: Record<string, unknown>;
  limits: SandboxLimits;
};

export type SandboxRequest = { id: string; method: string; args: unknown[] };
export type SandboxSettlement = { id: string; ok: boolean; json: string };

/** Output the guest emitted since the last step; what passed the output limit is only counted. */
export type SandboxOutput = { entries: unknown[]; omittedBytes: number };

export type SandboxFailureCode =
  | "timeout"
  | "memory_limit_exceeded"
  | "invalid_input"
  | "internal_error"
  | "runtime_unavailable";

export type SandboxStep =
  /** The guest waits on host work: `requests` are new since the last step, `canceled` withdrawn. */
  | { status: "awaiting"; requests: SandboxRequest[]; canceled: string[]; output: SandboxOutput }
  /** The guest's function returned: its value as JSON (a prefix when over the output limit and, for an object or array, `maxValueBytes`). */
  | {
      status: "completed";
      value: { json: string; originalBytes: number };
      output: SandboxOutput;
    }
  | { status: "failed"; code: SandboxFailureCode; error: string; output: SandboxOutput };

export interface SandboxRun {
  /**
   * Delivers the settlements and runs the guest until it finishes or waits again. Guest
   * computation past `deadline` (epoch milliseconds) fails the run with `timeout`.
   */
  step(input: { settled: SandboxSettlement[]; deadline: number }): Promise<SandboxStep>;
  /** Ends the run and frees its worker; idempotent. */
  dispose(): Promise<void>;
}

export interface CodeSandbox {
  start(program: SandboxProgram): Promise<SandboxRun>;
}
