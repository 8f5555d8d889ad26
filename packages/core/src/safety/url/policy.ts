import { ClawtoolsError } from "../../clawtools-error.js";
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { BLOCKED_HOSTNAME_SUFFIXES, BLOCKED_HOSTNAMES } from "./ip-ranges.js";
import { blockedReason, type IpPolicy, isLegacyIpLike, parseIpLiteral } from "./ip.js";

/**
 * Which destinations outgoing requests may reach. Everything is off by default: private,
 * internal and special-use addresses and names are refused.
 */
export interface UrlPolicy extends IpPolicy {
  /** Hostnames (exact, or `*.example.com`) allowed even when they resolve to private addresses. */
  allowedHostnames?: string[];
}

/** @deprecated the former name of {@link UrlPolicy}. */
export type SsrfPolicy = UrlPolicy;

export const BLOCKED_HOST = "Blocked hostname or private/internal/special-use IP address";
export const BLOCKED_RESOLVED = "Blocked: resolves to private/internal/special-use IP address";

const SSRF_BLOCKED = Symbol.for("clawtools.ssrf-blocked");

/** A destination the policy refuses. Recognise it with {@link isSsrfBlockedError} (works across copies of core). */
export class SsrfBlockedError extends ClawtoolsError {
  static override readonly marker: symbol = SSRF_BLOCKED;
  override name = "SsrfBlockedError";
  readonly [SSRF_BLOCKED] = true;
  override get code(): string {
    return "CLAWTOOLS_SSRF_BLOCKED";
  }
}

export function isSsrfBlockedError(error: unknown): error is SsrfBlockedError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[SSRF_BLOCKED] === true
  );
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;
export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function hostAllowed(host: string, policy: UrlPolicy): boolean {
  return (policy.allowedHostnames ?? []).some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith("*.") ? host.endsWith(p.slice(1)) : host === p;
  });
}

/** A stable key of the policy, so caches never serve across policies. */
export function policyKey(policy: UrlPolicy): string {
  return JSON.stringify([
    Boolean(policy.allowPrivateNetwork),
    Boolean(policy.allowRfc2544BenchmarkRange),
    [...(policy.allowedHostnames ?? [])].sort(),
  ]);
}

const bareHost = (hostname: string) => {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
};

/**
 * The checks that need no DNS: an IP literal's address (or a refusal), a blocked name or a
 * legacy IP form refused; `undefined` when the name must be resolved.
 */
export function checkHostWithoutDns(hostname: string, policy: UrlPolicy = {}): ResolvedAddress[] | undefined {
  const bare = bareHost(hostname);
  const allowed = hostAllowed(bare, policy);
  const literal = parseIpLiteral(bare);
  if (literal) {
    if (!allowed && blockedReason(literal, policy)) throw new SsrfBlockedError(BLOCKED_HOST);
    return [{ address: bare.split("%")[0]!, family: literal.family }];
  }
  if (isLegacyIpLike(bare)) throw new SsrfBlockedError(BLOCKED_HOST);
  if (
    !allowed &&
    !policy.allowPrivateNetwork &&
    (BLOCKED_HOSTNAMES.includes(bare) || BLOCKED_HOSTNAME_SUFFIXES.some((s) => bare.endsWith(s)))
  ) {
    throw new SsrfBlockedError(BLOCKED_HOST);
  }
  return undefined;
}

/** Resolves a name that passed {@link checkHostWithoutDns} once and checks every address it gives. */
export async function resolveCheckedName(
  hostname: string,
  policy: UrlPolicy = {},
  lookup: Lookup = systemLookup,
): Promise<ResolvedAddress[]> {
  const bare = bareHost(hostname);
  const addresses = await lookup(bare);
  if (addresses.length === 0) throw new Error(`DNS lookup returned no addresses for ${bare}`);
  if (!hostAllowed(bare, policy)) {
    for (const a of addresses) {
      const ip = parseIpLiteral(a.address);
      if (!ip || blockedReason(ip, policy)) throw new SsrfBlockedError(BLOCKED_RESOLVED);
    }
  }
  return addresses;
}

/**
 * Checks a hostname, resolves it once and checks every address: the addresses a connection
 * must be pinned to. Throws `SsrfBlockedError` with OpenClaw's messages.
 */
export async function resolvePinned(
  hostname: string,
  policy: UrlPolicy = {},
  lookup: Lookup = systemLookup,
): Promise<ResolvedAddress[]> {
  return checkHostWithoutDns(hostname, policy) ?? resolveCheckedName(hostname, policy, lookup);
}

/**
 * Checks a whole URL before anything contacts it (a browser navigation, a webhook target):
 * http or https only, then the host as {@link resolvePinned} does. Returns the parsed URL and
 * the checked addresses.
 */
export async function checkUrl(
  url: string | URL,
  policy: UrlPolicy = {},
  lookup: Lookup = systemLookup,
): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new Error(`Invalid URL: ${String(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error("Invalid URL: must be http or https");
  return { url: parsed, addresses: await resolvePinned(parsed.hostname, policy, lookup) };
}

/**
 * A `lookup` for `net.connect` / `http.request` / undici's `connect` that answers only with
 * the checked addresses: the socket cannot reach a second DNS answer.
 */
export function createPinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  if (addresses.length === 0) throw new Error("createPinnedLookup: no addresses");
  return ((
    _host: string,
    options: { all?: boolean } | number | undefined,
    callback: (...args: unknown[]) => void,
  ) => {
    const cb = typeof options === "function" ? (options as typeof callback) : callback;
    if (typeof options === "object" && options?.all)
      cb(
        null,
        addresses.map((a) => ({ ...a })),
      );
    else cb(null, addresses[0]!.address, addresses[0]!.family);
  }) as LookupFunction;
}
