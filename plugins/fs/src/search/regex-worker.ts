import { Worker } from "node:worker_threads";
import { ToolInputError } from "@clawtools/core";
import { type Clock, systemClock } from "@clawtools/core/time";

/** How long one file's lines may take in the worker before the search is stopped (default). */
export const DEFAULT_REGEX_TIMEOUT_MS = 10_000;

// Plain JavaScript, evaluated in the worker: compiles the pattern once, answers which lines match.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const re = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ id, files }) => {
  const hits = files.map((lines) => {
    const found = new Uint8Array(lines.length);
    for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) found[i] = 1;
    return found;
  });
  parentPort.postMessage({ id, hits }, hits.map((h) => h.buffer));
});
`;

export interface RegexWorker {
  /**
   * For each file's lines, 1 where the pattern matches. One round trip for the batch; rejects
   * past the deadline (naming `label`) or on abort.
   */
  matchFiles(files: string[][], label: string): Promise<Uint8Array[]>;
  close(): Promise<void>;
}

/**
 * Runs a model-supplied regular expression off the main thread: a catastrophically
 * backtracking pattern costs this worker, never the event loop every other call shares. Each
 * batch of files has a deadline; past it, or when `signal` aborts, the worker is terminated.
 */
export function createRegexWorker(
  re: RegExp,
  timeoutMs: number = DEFAULT_REGEX_TIMEOUT_MS,
  signal?: AbortSignal,
  clock: Clock = systemClock,
): RegexWorker {
  let worker: Worker | undefined;
  let nextId = 0;
  let pending: { reject: (error: Error) => void } | undefined;
  const stop = (error: Error) => {
    const current = pending;
    pending = undefined;
    void worker?.terminate();
    worker = undefined;
    current?.reject(error);
  };
  const onAbort = () => stop(new Error("Operation aborted"));
  signal?.addEventListener("abort", onAbort, { once: true });
  const start = () => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { source: re.source, flags: re.flags } });
    w.unref();
    w.on("error", (error) => stop(new Error(`The regex worker failed: ${error.message}`)));
    return w;
  };
  return {
    matchFiles(files, label) {
      signal?.throwIfAborted();
      worker ??= start();
      const w = worker;
      const id = nextId++;
      return new Promise<Uint8Array[]>((resolve, reject) => {
        const timer = clock.setTimeout(() => {
          stop(
            new ToolInputError(
              `The pattern did not finish within ${timeoutMs / 1000}s on ${label} (it likely backtracks catastrophically). Simplify it, or use literal=true.`,
            ),
          );
        }, timeoutMs);
        const onMessage = (message: { id: number; hits: Uint8Array[] }) => {
          if (message.id !== id) return;
          clock.clearTimeout(timer);
          w.off("message", onMessage);
          pending = undefined;
          resolve(message.hits);
        };
        pending = {
          reject: (error) => {
            clock.clearTimeout(timer);
            w.off("message", onMessage);
            reject(error);
          },
        };
        w.on("message", onMessage);
        w.postMessage({ id, files });
      });
    },
    async close() {
      signal?.removeEventListener("abort", onAbort);
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}
