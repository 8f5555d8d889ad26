import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { CONTROLLER_SOURCE } from "./controller-source.js";
import type {
  CodeSandbox,
  SandboxFailureCode,
  SandboxOutput,
  SandboxProgram,
  SandboxRun,
  SandboxStep,
} from "./protocol.js";
import { WORKER_SOURCE } from "./worker-source.js";

/** How long past a step's deadline the worker may take to answer before it is terminated. */
export const WORKER_GRACE_MS = 2_000;
/** The worker's own V8 heap: output and values pass through it as JSON text. */
const WORKER_HEAP_MB = 256;

const require = createRequire(import.meta.url);
/** `WebAssembly` as Node has it (the project's lib has no DOM, where its types live). */
const wasmApi = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } })
  .WebAssembly;
let compiled: Promise<object> | undefined;

/** QuickJS's WebAssembly module, compiled once per process (a worker gets the compiled module). */
function quickjsModule(): Promise<object> {
  compiled ??= readFile(require.resolve("quickjs-wasi/quickjs.wasm")).then((bytes) => wasmApi.compile(bytes));
  return compiled;
}

const EMPTY: SandboxOutput = { entries: [], omittedBytes: 0 };
const failed = (code: SandboxFailureCode, error: string): SandboxStep => ({
  status: "failed",
  code,
  error,
  output: EMPTY,
});

type WorkerMessage = { type: "ready"; error?: string } | { type: "step"; result: SandboxStep };

/**
 * The QuickJS sandbox: each run gets its own worker thread and VM, so a guest that computes
 * until its deadline costs that worker, never the event loop the host's other calls share.
 * A worker that does not answer within its deadline plus a grace period is terminated.
 */
export function createQuickJsSandbox(): CodeSandbox {
  return {
    async start(program: SandboxProgram): Promise<SandboxRun> {
      const wasm = await quickjsModule();
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        env: {},
        workerData: {
          wasm,
          quickjsUrl: pathToFileURL(require.resolve("quickjs-wasi")).href,
          controller: CONTROLLER_SOURCE,
          prelude: program.prelude,
          code: program.code,
          globals: program.globals,
          limits: program.limits,
        },
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        stdout: true,
        stderr: true,
      });
      worker.unref();
      let closed = false;
      let waiter: ((message: WorkerMessage | Error) => void) | undefined;
      const deliver = (message: WorkerMessage | Error) => {
        const current = waiter;
        waiter = undefined;
        current?.(message);
      };
      worker.on("message", (message: WorkerMessage) => deliver(message));
      worker.on("error", (error) => deliver(error));
      worker.on("exit", () => {
        closed = true;
        deliver(new Error("the code mode worker exited"));
      });
      const next = (timeoutMs: number) =>
        new Promise<WorkerMessage | Error>((resolve) => {
          const timer = setTimeout(() => {
            waiter = undefined;
            void worker.terminate();
            resolve(new Error("code mode worker timeout exceeded"));
          }, timeoutMs);
          waiter = (message) => {
            clearTimeout(timer);
            resolve(message);
          };
        });
      const dispose = async () => {
        if (closed) return;
        closed = true;
        await worker.terminate();
      };
      const ready = await next(10_000);
      if (ready instanceof Error || ready.type !== "ready" || ready.error) {
        await dispose();
        const reason =
          ready instanceof Error
            ? ready.message
            : ready.type === "ready"
              ? ready.error
              : "unexpected message";
        throw new Error(`the code mode sandbox did not start: ${reason}`);
      }
      return {
        async step({ settled, deadline }) {
          if (closed) return failed("runtime_unavailable", "code mode continuation is no longer available");
          const answer = next(Math.max(0, deadline - Date.now()) + WORKER_GRACE_MS);
          worker.postMessage({ settled, deadline });
          const message = await answer;
          if (message instanceof Error) {
            await dispose();
            return failed(
              /timeout/.test(message.message) ? "timeout" : "runtime_unavailable",
              /timeout/.test(message.message)
                ? message.message
                : `code mode worker failed: ${message.message}`,
            );
          }
          return message.type === "step"
            ? message.result
            : failed("internal_error", "invalid code mode worker response");
        },
        dispose,
      };
    },
  };
}
