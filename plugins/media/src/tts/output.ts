import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { openInWorkspace, writeFileAtomic } from "@clawtools/core/safety";

/** Where tts audio goes: inside the workspace when there is one, so `message` and `read` take it. */
export interface AudioOutput {
  /** The workspace root; audio lands in `dir` below it, through core's containment. */
  workspaceDir?: string;
  /** Relative to the workspace (default `.clawtools/tts`), or an absolute directory without one. */
  dir: string;
  /** Audio older than this is removed before each new file (hours). */
  retainHours: number;
}

export const DEFAULT_AUDIO_DIR = ".clawtools/tts";

export interface SavedAudio {
  /** Absolute real path of the file. */
  path: string;
  /** The path as a model passes it to `message` (media) or `read`: relative to the workspace. */
  workspacePath?: string;
}

/**
 * Writes one audio file under a fresh random name (never a clock reading: concurrent calls each
 * get their own file), atomically and, in a workspace, never through a link that leads out.
 */
export async function saveAudio(out: AudioOutput, data: Buffer, ext: string): Promise<SavedAudio> {
  const name = `voice-${randomUUID()}${ext}`;
  if (out.workspaceDir) {
    const workspacePath = path.posix.join(out.dir.split(path.sep).join("/"), name);
    const { realPath } = await writeFileAtomic(out.workspaceDir, workspacePath, data, {
      createParents: true,
    });
    return { path: realPath, workspacePath };
  }
  await fs.mkdir(out.dir, { recursive: true });
  const file = path.join(out.dir, name);
  await fs.writeFile(file, data, { flag: "wx" });
  return { path: file };
}

/**
 * Removes audio this tool wrote more than `retainHours` ago. In a workspace the directory is
 * opened once through core's containment and read from its descriptor, so a link planted in its
 * place cannot point the sweep at files outside.
 */
export async function sweepAudio(out: AudioOutput, now = Date.now()): Promise<void> {
  const cutoff = now - out.retainHours * 3_600_000;
  let dirPath = out.dir;
  let close = async () => {};
  if (out.workspaceDir) {
    try {
      const dir = await openInWorkspace(out.workspaceDir, out.dir, { mode: "dir" });
      dirPath = dir.path;
      close = () => dir.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
  }
  try {
    const names = await fs.readdir(dirPath).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.startsWith("voice-"))
        .map(async (n) => {
          const file = path.join(dirPath, n);
          const st = await fs.lstat(file).catch(() => undefined);
          if (st?.isFile() && st.mtimeMs < cutoff) await fs.unlink(file).catch(() => {});
        }),
    );
  } finally {
    await close();
  }
}
