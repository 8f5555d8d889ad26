import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";

// What the workspace file operations take, and the handle openInWorkspace gives.

export interface WorkspacePathOptions {
  /** The path as the model gave it, for error messages (default: the target). */
  input?: string;
  /**
   * A final symlink is followed when it leads inside the root (every hop checked) —
   * `"follow-in-root"`, the default — or not followed at all (`"nofollow"`).
   */
  final?: "follow-in-root" | "nofollow";
  /** Accept a regular file with more than one link (default false: refused). */
  allowHardlinks?: boolean;
}

export interface OpenInWorkspaceOptions extends WorkspacePathOptions {
  /**
   * `read`: an existing file (or directory: check `stat`); `write`: a file opened for writing in
   * place, created when missing (use writeFileAtomic to replace content); `dir`: a directory.
   */
  mode?: "read" | "write" | "dir";
  /** With mode `write`: append instead of writing from the start. */
  append?: boolean;
  /** With mode `write` or `dir`: create missing parent directories. */
  createParents?: boolean;
}

export interface WorkspaceHandle {
  handle: FileHandle;
  /** The verified real path of what was opened. */
  realPath: string;
  stat: Stats;
  /**
   * A path that names the opened directory itself, not by lookup (mode `dir`):
   * `/proc/self/fd/<fd>` on Linux, the real path elsewhere. Valid until `close()`.
   */
  path: string;
  close(): Promise<void>;
}
