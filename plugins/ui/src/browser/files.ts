import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { openInWorkspace, ToolInputError } from "@clawtools/core";

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
): Promise<string[]> {
  if (!root) throw new ToolInputError("upload needs a workspace: files are read from inside it");
  const dir = path.join(stateDir, "browser", "uploads", randomBytes(6).toString("hex"));
  await mkdir(dir, { recursive: true });
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
