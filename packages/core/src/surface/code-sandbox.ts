/**
 * What the code surface needs from a sandbox: start a program, step it. This is the contract
 * `@clawtools/code-sandbox` (QuickJS in WebAssembly, in a worker thread) implements; it is
 * restated here, not imported, so core carries no QuickJS unless code mode is used.
 */
export type CodeSandboxLimits = {
  memoryLimitBytes: number;
  maxPendingCalls: number;
  maxQueuedCalls: number;
  maxOutputBytes: number;
  maxRequestBytes: number;
  /** A final object or array is sent whole up to this many bytes (for the results store). */
  maxValueBytes?: number;
};

export type CodeSandboxProgram = {
  prelude: string;
  code: string;
  globals: Record<string, unknown>;
  limits: CodeSandboxLimits;
};

export type CodeSandboxRequest = { id: string; method: string; args: unknown[] };
export type CodeSandboxSettlement = { id: string; ok: boolean; json: string };
export type CodeSandboxOutput = { entries: unknown[]; omittedBytes: number };
export type CodeSandboxFailureCode =
  | "timeout"
  | "memory_limit_exceeded"
  | "invalid_input"
  | "internal_error"
  | "runtime_unavailable";

export type CodeSandboxStep =
  | { status: "awaiting"; requests: CodeSandboxRequest[]; canceled: string[]; output: CodeSandboxOutput }
  | { status: "completed"; value: { json: string; originalBytes: number }; output: CodeSandboxOutput }
  | { status: "failed"; code: CodeSandboxFailureCode; error: string; output: CodeSandboxOutput };

export interface CodeSandboxRun {
  step(input: { settled: CodeSandboxSettlement[]; deadline: number }): Promise<CodeSandboxStep>;
  dispose(): Promise<void>;
}

export interface CodeSandbox {
  start(program: CodeSandboxProgram): Promise<CodeSandboxRun>;
}

const SANDBOX_PACKAGE = "@clawtools/code-sandbox";
let loaded: Promise<CodeSandbox> | undefined;

/**
 * The QuickJS sandbox, loaded on the first code mode call (an optional peer dependency of
 * core). Missing, it is one line that says what to install.
 */
export function loadCodeSandbox(): Promise<CodeSandbox> {
  loaded ??= import("@clawtools/code-sandbox").then(
    (module): CodeSandbox => module.createQuickJsSandbox(),
    (error: unknown) => {
      loaded = undefined;
      const code = (error as { code?: string }).code;
      throw new Error(
        code === "ERR_MODULE_NOT_FOUND"
          ? `code mode needs ${SANDBOX_PACKAGE} (QuickJS in WebAssembly): install it beside @clawtools/core`
          : `${SANDBOX_PACKAGE} did not load: ${(error as Error).message}`,
      );
    },
  );
  return loaded;
}
