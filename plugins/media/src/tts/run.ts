import { spawn } from "node:child_process";
import { withTimeout } from "@clawtools/core/time";

/** Runs a program (never through a shell) and collects stdout; stdin gets `input` when given. */
export function runProgram(
  file: string,
  args: string[],
  options: { input?: string | Buffer; timeoutMs: number; signal?: AbortSignal },
): Promise<Buffer> {
  // the timeout's signal and the caller's both kill the program (SIGKILL: it has no state to save)
  const run = (timeout: AbortSignal) =>
    new Promise<Buffer>((resolve, reject) => {
      const child = spawn(file, args, {
        stdio: ["pipe", "pipe", "pipe"],
        signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
        killSignal: "SIGKILL",
      });
      const out: Buffer[] = [];
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        if (err.length < 2_000) err += chunk.toString("utf8");
      });
      child.on("error", reject);
      child.on("close", (code, signal) => {
        if (code === 0) resolve(Buffer.concat(out));
        else
          reject(
            new Error(
              `${file.split("/").pop()} exited with ${signal ?? code}${err.trim() ? `: ${err.trim().slice(0, 300)}` : ""}`,
            ),
          );
      });
      child.stdin.on("error", () => {}); // a program that exits without reading stdin
      child.stdin.end(options.input ?? "");
    });
  return withTimeout(run, options.timeoutMs, { message: "request timed out" });
}
