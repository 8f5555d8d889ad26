import { isIP } from "node:net";
import { IPV4_BENCHMARK_RANGE, IPV4_BLOCKED_RANGES, IPV6_BLOCKED_RANGES, type IpRange } from "./ip-ranges.js";

export interface ParsedIp {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

/**
 * Parses an IP literal strictly: IPv4 only as four decimal octets without leading zeros
 * (so `0x7f.1`, `017.0.0.1`, `127.1` and `2130706433` are not IPv4 here), IPv6 as Node reads
 * it (brackets and a zone id allowed).
 */
export function parseIpLiteral(text: string): ParsedIp | undefined {
  const host = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (isIP(host) === 4) {
    if (!/^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(host)) return undefined;
    return { family: 4, bytes: host.split(".").map(Number) };
  }
  const bare = host.split("%")[0]!;
  if (isIP(bare) === 6) return { family: 6, bytes: ipv6Bytes(bare) };
  return undefined;
}

/** Looks like an attempt at an IP literal in a legacy or malformed form (refuse: fail closed). */
export function isLegacyIpLike(host: string): boolean {
  const h = host.toLowerCase();
  if (/^[0-9.]+$/.test(h)) return parseIpLiteral(h) === undefined; // 2130706433, 127.1, 017.0.0.1
  if (/^(0x[0-9a-f]+|\d+)(\.(0x[0-9a-f]+|\d+)){0,3}$/.test(h)) return true; // 0x7f.1, 0x7f000001
  if (h.startsWith("[") || (h.includes(":") && /^[0-9a-f:.%]+$/.test(h)))
    return parseIpLiteral(h) === undefined;
  return false;
}

function ipv6Bytes(text: string): number[] {
  let head = text;
  let v4: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    v4 = text
      .slice(lastColon + 1)
      .split(".")
      .map(Number);
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left, right] = head.split("::") as [string, string | undefined];
  const l = left ? left.split(":") : [];
  const r = right ? right.split(":") : [];
  const groups = right === undefined ? l : [...l, ...Array(8 - l.length - r.length).fill("0"), ...r];
  const bytes = groups.flatMap((g) => {
    const n = Number.parseInt(g || "0", 16);
    return [n >> 8, n & 0xff];
  });
  if (v4.length === 4) bytes.splice(12, 4, ...v4);
  return bytes;
}

function inRange(bytes: readonly number[], [prefix, bits]: IpRange): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

const zeros = (bytes: readonly number[], from: number, to: number) =>
  bytes.slice(from, to).every((b) => b === 0);

/**
 * The IPv4 address an IPv6 address carries, when it is one of the transition forms that
 * route to it: IPv4-mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, IPv4-compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::/96` and local-use `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo
 * `2001::/32` (client address inverted) and ISATAP interface ids (`…:0:5efe:a.b.c.d`).
 * The same forms OpenClaw decodes (`src/shared/net/ip.ts`, `extractEmbeddedIpv4FromIpv6`).
 */
export function embeddedIpv4(bytes: readonly number[]): number[] | undefined {
  const last = () => bytes.slice(12, 16);
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last();
  if (zeros(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(bytes, 10, 12)) return last();
  if (zeros(bytes, 0, 12) && !(zeros(bytes, 12, 15) && bytes[15]! <= 1)) return last();
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (zeros(bytes, 4, 12)) return last();
    if (bytes[4] === 0 && bytes[5] === 1 && zeros(bytes, 6, 12)) return last();
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0)
    return last().map((b) => b ^ 0xff);
  if ((bytes[8]! & 0xfc) === 0 && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe) return last();
  return undefined;
}

export interface IpPolicy {
  /** Private, loopback, link-local and other special-use addresses are allowed. */
  allowPrivateNetwork?: boolean;
  /** 198.18.0.0/15 is allowed (fake-IP DNS proxies answer from it). */
  allowRfc2544BenchmarkRange?: boolean;
}

/**
 * Why an address may not be contacted under the policy (the range's name), or undefined when
 * it may. An IPv6 address that embeds an IPv4 one is judged by the IPv4 address as well.
 */
export function blockedReason(ip: ParsedIp, policy: IpPolicy = {}): string | undefined {
  if (policy.allowPrivateNetwork) return undefined;
  if (ip.family === 4) {
    const hit = IPV4_BLOCKED_RANGES.find((r) => inRange(ip.bytes, r));
    if (hit) return hit[2];
    if (!policy.allowRfc2544BenchmarkRange && inRange(ip.bytes, IPV4_BENCHMARK_RANGE))
      return IPV4_BENCHMARK_RANGE[2];
    return undefined;
  }
  const own = IPV6_BLOCKED_RANGES.find((r) => inRange(ip.bytes, r))?.[2];
  if (own) return own;
  const v4 = embeddedIpv4(ip.bytes);
  if (!v4) return undefined;
  const inner = blockedReason({ family: 4, bytes: v4 }, policy);
  return inner ? `embedded IPv4 ${v4.join(".")} is ${inner}` : undefined;
}
