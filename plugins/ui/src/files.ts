import { randomBytes } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ToolInputError } from "@clawtools/core";
import { openInWorkspace } from "@clawtools/core/safety";

/** Screenshots, PDFs and staged uploads live under the state directory, never the workspace. */
export async function mediaPath(stateDir: string, kind: string, ext: string): Promise<string> {
  const dir = path.join(stateDir, "browser", "media");
  await mkdir(dir, { recursive: true });
  return path.join(dir, `${kind}-${Date.now()}-${randomBytes(4).toString("hex")}.${ext}`);
}

/**
 * Copies upload files out of the workspace through core's containment (no link may lead out,
 * no hard links) into a fresh staging directory, so what Chromium reads is what was checked,
 * whatever happens to the workspace afterwards.
 */
export async function stageUploads(
  root: string | undefined,
  stateDir: string,
  paths: string[],
): Promise<{ dir: string; files: string[] }> {
  if (!root) throw new ToolInputError("upload needs a workspace: files are read from inside it");
  // named by this process, so a later start can tell the leftovers of a killed one
  const dir = path.join(uploadsRoot(stateDir), `${process.pid}-${randomBytes(6).toString("hex")}`);
  await mkdir(dir, { recursive: true });
  try {
    return { dir, files: await copyInto(root, dir, paths) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

const uploadsRoot = (stateDir: string) => path.join(stateDir, "browser", "uploads");

async function copyInto(root: string, dir: string, paths: string[]): Promise<string[]> {
  const staged: string[] = [];
  for (const [i, input] of paths.entries()) {
    const opened = await openInWorkspace(root, input, { mode: "read", input });
    try {
      if (!opened.stat.isFile())
        throw new ToolInputError(`upload path is not a file: ${input.slice(0, 200)}`);
      const data = await opened.handle.readFile();
      const target = path.join(dir, String(i), path.basename(opened.realPath));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, data);
      staged.push(target);
    } finally {
      await opened.close();
    }
  }
  return staged;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Removes staged uploads left by processes that are gone (a server killed before it could clean up). */
export async function sweepStaleUploads(stateDir: string): Promise<void> {
  const names = await readdir(uploadsRoot(stateDir)).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) return;
      await rm(path.join(uploadsRoot(stateDir), name), { recursive: true, force: true });
    }),
  );
}
