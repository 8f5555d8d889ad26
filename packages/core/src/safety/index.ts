export { STALE_TEMP_MS, TEMP_FILE_PATTERN } from "./temp-files.js";
export { heldWriteLocks, withWriteLock, withWriteLocks } from "./write-lock.js";
export {
  acquireFileLock,
  FILE_LOCK_STALE_MS,
  type FileLockOptions,
  type HeldFileLock,
  processAlive,
  withFileLock,
} from "./file-lock.js";
export { quotePath } from "./workspace-errors.js";
export {
  listDirInWorkspace,
  mkdirInWorkspace,
  removeInWorkspace,
  renameInWorkspace,
  type WorkspaceDirEntry,
} from "./workspace-entries.js";
export {
  type OpenInWorkspaceOptions,
  openInWorkspace,
  resolveInWorkspace,
  statInWorkspace,
  type WorkspaceHandle,
  type WorkspacePathOptions,
  type WorkspaceStat,
  type WriteAtomicOptions,
  writeFileAtomic,
} from "./workspace-fs.js";
export { isInside as isInsideRoot } from "./workspace-walk.js";
export { isCredentialUrl, maskCredentialUrls, secretsInDocument } from "./credential-url.js";
export {
  hasSecrets,
  MIN_SECRET_LENGTH,
  REDACTED_MARKER,
  redactError,
  redactSecrets,
  redactValue,
  registerEnvSecrets,
  registerSecret,
  registerSecrets,
} from "./redact.js";
export { redactWrites } from "./redact-stream.js";
