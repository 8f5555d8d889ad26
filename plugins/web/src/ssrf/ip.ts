import { isIP } from "node:net";

export type ParsedIp = { family: 4; bytes: number[] } | { family: 6; bytes: number[] };

/**
 * Parses an IP literal strictly: IPv4 only as four decimal octets without leading zeros
 * (so `0x7f.1`, `017.0.0.1`, `127.1` and `2130706433` are not IPv4 here), IPv6 as Node reads it.
 */
export function parseIpLiteral(text: string): ParsedIp | undefined {
  const host = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (isIP(host) === 4) {
    if (!/^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(host)) return undefined;
    return { family: 4, bytes: host.split(".").map(Number) };
  }
  if (isIP(host.split("%")[0]!) === 6) return { family: 6, bytes: ipv6Bytes(host.split("%")[0]!) };
  return undefined;
}

/** Looks like an attempt at an IP literal in a legacy or malformed form (fail closed). */
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

type Range = [prefix: number[], bits: number, label: string];

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

const V4_BLOCKED: Range[] = [
  [[0], 8, "unspecified"],
  [[10], 8, "private"],
  [[100, 64], 10, "carrier-grade NAT"],
  [[127], 8, "loopback"],
  [[169, 254], 16, "link-local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "IETF protocol assignments"],
  [[192, 0, 2], 24, "documentation"],
  [[192, 88, 99], 24, "6to4 relay"],
  [[192, 168], 16, "private"],
  [[198, 51, 100], 24, "documentation"],
  [[203, 0, 113], 24, "documentation"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved"],
  [[255, 255, 255, 255], 32, "broadcast"],
];
const V4_BENCHMARK: Range = [[198, 18], 15, "benchmarking (RFC 2544)"];

const V6_BLOCKED: Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified"],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"],
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "site-local"],
  [[0xfc], 7, "unique-local"],
  [[0xff], 8, "multicast"],
  [[0x01, 0, 0, 0, 0, 0, 0, 0], 64, "discard"],
  [[0x20, 0x01, 0, 0x02], 48, "benchmarking"],
  [[0x20, 0x01, 0x00, 0x20], 28, "ORCHIDv2"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "documentation"],
];

export interface IpPolicy {
  allowPrivateNetwork?: boolean;
  allowRfc2544BenchmarkRange?: boolean;
}

/** The IPv4 address embedded in an IPv6 one (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(bytes: number[]): number[] | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12); // ::ffff:a.b.c.d
  if (zeros(0, 12) && !(bytes[12] === 0 && bytes[13] === 0 && bytes[14] === 0 && (bytes[15] ?? 0) <= 1))
    return bytes.slice(12); // ::a.b.c.d
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return bytes.slice(12); // 64:ff9b::/96
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6); // 2002::/16
  return undefined;
}

/** Why an address may not be contacted under the policy, or undefined when it may. */
export function blockedReason(ip: ParsedIp, policy: IpPolicy = {}): string | undefined {
  if (policy.allowPrivateNetwork) return undefined;
  if (ip.family === 4) {
    const hit = V4_BLOCKED.find((r) => inRange(ip.bytes, r));
    if (hit) return hit[2];
    if (!policy.allowRfc2544BenchmarkRange && inRange(ip.bytes, V4_BENCHMARK)) return V4_BENCHMARK[2];
    return undefined;
  }
  const v4 = embeddedV4(ip.bytes);
  if (v4) return blockedReason({ family: 4, bytes: v4 }, policy) ?? undefined;
  return V6_BLOCKED.find((r) => inRange(ip.bytes, r))?.[2];
}
