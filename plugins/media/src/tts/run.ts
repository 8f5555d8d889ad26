import { spawn } from "node:child_process";

/** Runs a program (never through a shell) and collects stdout; stdin gets `input` when given. */
export function runProgram(
  file: string,
  args: string[],
  options: { input?: string | Buffer; timeoutMs: number; signal?: AbortSignal },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const out: Buffer[] = [];
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("request timed out"));
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 2_000) err += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
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
}
