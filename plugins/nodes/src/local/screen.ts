import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The first executable named `name` on PATH, or undefined. */
export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A display to capture: `DISPLAY` set and ImageMagick's `import` installed (Xvfb works). */
export function screenAvailable(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; tool: string } | { ok: false; why: string } {
  if (!env.DISPLAY)
    return {
      ok: false,
      why: "no display: DISPLAY is not set (start Xvfb or a desktop session and set DISPLAY; ImageMagick's `import` captures it)",
    };
  const tool = which("import", env);
  if (!tool) return { ok: false, why: "no screen capture tool (install Debian's imagemagick for `import`)" };
  return { ok: true, tool };
}

/** A PNG of the whole X screen. */
export function captureScreen(
  tool: string,
  options: { timeoutMs: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      tool,
      ["-window", "root", "png:-"],
      {
        encoding: "buffer",
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        env: options.env ?? process.env,
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`screen capture failed: ${String(stderr).trim().slice(0, 300) || error.message}`));
        else resolve(stdout);
      },
    );
  });
}
