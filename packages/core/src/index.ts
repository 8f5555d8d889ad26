export * from "./assemble.js";
export * from "./catalog.js";
export * from "./config.js";
export * from "./errors.js";
export * from "./external-content.js";
export { compileGlob, type GlobMatcher, type GlobOptions } from "./glob.js";
export * from "./lifecycle/disposer.js";
export * from "./params.js";
export * from "./plugin.js";
export * from "./policy/index.js";
export * from "./providers/index.js";
export * from "./registry.js";
export * from "./results.js";
export * from "./schema.js";
export * from "./state-dir.js";
export type * from "./tool.js";
export * from "./truncate.js";
export * from "./validate.js";
export * from "./wrap/index.js";
export {
  heldWriteLocks,
  isInsideRoot,
  listDirInWorkspace,
  mkdirInWorkspace,
  type OpenInWorkspaceOptions,
  openInWorkspace,
  quotePath,
  removeInWorkspace,
  renameInWorkspace,
  resolveInWorkspace,
  STALE_TEMP_MS,
  statInWorkspace,
  TEMP_FILE_PATTERN,
  type WorkspaceDirEntry,
  type WorkspaceHandle,
  type WorkspacePathOptions,
  type WorkspaceStat,
  type WriteAtomicOptions,
  withWriteLock,
  withWriteLocks,
  writeFileAtomic,
} from "./safety/index.js";
export {
  BLOCKED_HOST,
  BLOCKED_RESOLVED,
  BODY_HEADERS,
  blockedReason,
  CROSS_ORIGIN_SAFE_HEADERS,
  checkHostWithoutDns,
  checkUrl,
  createPinnedLookup,
  embeddedIpv4,
  FetchTimeoutError,
  followRedirect,
  type GuardedFetchOptions,
  type GuardedResponse,
  guardedFetch,
  type IpPolicy,
  isLegacyIpLike,
  isSsrfBlockedError,
  type Lookup,
  type ParsedIp,
  parseIpLiteral,
  policyKey,
  type RedirectRequest,
  type ResolvedAddress,
  resolveCheckedName,
  resolvePinned,
  SsrfBlockedError,
  type SsrfPolicy,
  systemLookup,
  type UrlPolicy,
} from "./safety/url/index.js";
