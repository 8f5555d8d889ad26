// @clawtools/core/safety: the primitives every section shares. Workspace containment, the
// per-file write lock, the cross-process file lock, secret redaction, the child-process environment
// and the URL / address policy (SSRF).
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
export { DIRECT_READ_MAX, readSmallInWorkspace, type SmallFile } from "./workspace-small.js";
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
// the environment a child process gets: OpenClaw's host policy (exec, ACP agents, any runner)
export {
  BLOCKED_ENV_KEYS,
  BLOCKED_ENV_PREFIXES,
  checkCallEnv,
  isBlockedEnvKey,
  isBlockedInheritedEnvKey,
  PATH_FORBIDDEN,
  sanitizeEnv,
} from "./env/env.js";
export { isWithheldEnvKey, withheldEnvKeys, withholdEnv } from "./env/withheld-env.js";
// the URL / address policy (SSRF) and the fetch, redirects and egress proxy that keep to it
export * from "./url/index.js";
