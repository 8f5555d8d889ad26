import { lookup as dnsLookup } from "node:dns/promises";
import { blockedReason, isLegacyIpLike, type IpPolicy, parseIpLiteral } from "./ip.js";

export interface SsrfPolicy extends IpPolicy {
  /** Hostnames (exact, or `*.example.com`) allowed even when they resolve to private addresses. */
  allowedHostnames?: string[];
}

export const BLOCKED_HOST = "Blocked hostname or private/internal/special-use IP address";
export const BLOCKED_RESOLVED = "Blocked: resolves to private/internal/special-use IP address";

const BLOCKED_NAMES = new Set(["localhost", "localhost.localdomain", "metadata.google.internal"]);
const BLOCKED_SUFFIXES = [".localhost", ".local", ".internal"];

export class SsrfBlockedError extends Error {
  override name = "SsrfBlockedError";
}

export type Lookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;
export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function hostAllowed(host: string, policy: SsrfPolicy): boolean {
  return (policy.allowedHostnames ?? []).some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith("*.") ? host.endsWith(p.slice(1)) : host === p;
  });
}

/** A stable key of the policy, so caches never serve across policies. */
export function policyKey(policy: SsrfPolicy): string {
  return JSON.stringify([
    Boolean(policy.allowPrivateNetwork),
    Boolean(policy.allowRfc2544BenchmarkRange),
    [...(policy.allowedHostnames ?? [])].sort(),
  ]);
}

type Addresses = Array<{ address: string; family: number }>;

/**
 * The checks that need no DNS: an IP literal's addresses (or a refusal), a blocked name or
 * legacy IP form refused; `undefined` when the name must be resolved.
 */
export function checkHostWithoutDns(hostname: string, policy: SsrfPolicy): Addresses | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  const allowed = hostAllowed(bare, policy);
  const literal = parseIpLiteral(bare);
  if (literal) {
    if (!allowed && blockedReason(literal, policy)) throw new SsrfBlockedError(BLOCKED_HOST);
    return [{ address: bare, family: literal.family }];
  }
  if (isLegacyIpLike(bare)) throw new SsrfBlockedError(BLOCKED_HOST);
  if (
    !allowed &&
    !policy.allowPrivateNetwork &&
    (BLOCKED_NAMES.has(bare) || BLOCKED_SUFFIXES.some((s) => bare.endsWith(s)))
  ) {
    throw new SsrfBlockedError(BLOCKED_HOST);
  }
  return undefined;
}

/** Resolves a name that passed `checkHostWithoutDns` once and checks every address it gives. */
export async function resolveCheckedName(
  hostname: string,
  policy: SsrfPolicy,
  lookup: Lookup = systemLookup,
): Promise<Addresses> {
  const bare = hostname.toLowerCase().replace(/\.$/, "");
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
 * Checks a hostname, resolves it once and checks every address. Returns the addresses the
 * connection must be pinned to. Throws SsrfBlockedError with OpenClaw's messages.
 */
export async function resolvePinned(
  hostname: string,
  policy: SsrfPolicy,
  lookup: Lookup = systemLookup,
): Promise<Addresses> {
  return checkHostWithoutDns(hostname, policy) ?? resolveCheckedName(hostname, policy, lookup);
}
