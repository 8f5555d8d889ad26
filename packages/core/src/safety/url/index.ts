export { BLOCKED_HEADER, EgressProxy, type EgressProxyOptions } from "./egress-proxy.js";
export {
  FetchTimeoutError,
  type GuardedFetchOptions,
  type GuardedResponse,
  guardedFetch,
  isFetchTimeoutError,
} from "./guarded-fetch.js";
export {
  blockedReason,
  embeddedIpv4,
  type IpPolicy,
  isLegacyIpLike,
  type ParsedIp,
  parseIpLiteral,
} from "./ip.js";
export {
  BLOCKED_HOST,
  BLOCKED_RESOLVED,
  checkHostWithoutDns,
  checkUrl,
  createPinnedLookup,
  isSsrfBlockedError,
  type Lookup,
  policyKey,
  type ResolvedAddress,
  resolveCheckedName,
  resolvePinned,
  SsrfBlockedError,
  type SsrfPolicy,
  systemLookup,
  type UrlPolicy,
} from "./policy.js";
export { BODY_HEADERS, CROSS_ORIGIN_SAFE_HEADERS, followRedirect, type RedirectRequest } from "./redirect.js";
