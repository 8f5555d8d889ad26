/**
 * The address ranges a URL policy refuses, as data. Facts carried over from OpenClaw
 * (`src/shared/net/ip.ts`, which classifies with ipaddr.js ranges: IPv4 unspecified, broadcast,
 * multicast, linkLocal, loopback, carrierGradeNat, private, reserved, plus RFC 2544
 * 198.18.0.0/15; IPv6 unspecified, loopback, linkLocal, uniqueLocal, multicast, reserved,
 * benchmarking, discard, orchid2, plus the deprecated site-local fec0::/10) and from the IANA
 * special-purpose registries.
 */

/** `[prefix bytes, prefix length in bits, label]`. */
export type IpRange = readonly [prefix: readonly number[], bits: number, label: string];

export const IPV4_BLOCKED_RANGES: readonly IpRange[] = [
  [[0], 8, "unspecified"],
  [[10], 8, "private"],
  [[100, 64], 10, "carrier-grade NAT"],
  [[127], 8, "loopback"],
  [[169, 254], 16, "link-local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "IETF protocol assignments"],
  [[192, 0, 2], 24, "documentation"],
  [[192, 88, 99], 24, "6to4 relay anycast"],
  [[192, 168], 16, "private"],
  [[198, 51, 100], 24, "documentation"],
  [[203, 0, 113], 24, "documentation"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved"],
  [[255, 255, 255, 255], 32, "broadcast"],
];

/** RFC 2544 benchmarking; fake-IP DNS proxies (Clash, Surge) answer from it, hence the opt-in. */
export const IPV4_BENCHMARK_RANGE: IpRange = [[198, 18], 15, "benchmarking (RFC 2544)"];

export const IPV6_BLOCKED_RANGES: readonly IpRange[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified"],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"],
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "site-local"],
  [[0xfc], 7, "unique-local"],
  [[0xff], 8, "multicast"],
  [[0x01, 0, 0, 0, 0, 0, 0, 0], 64, "discard"],
  [[0x20, 0x01, 0, 0x02, 0, 0], 48, "benchmarking"],
  [[0x20, 0x01, 0x00, 0x10], 28, "ORCHID"],
  [[0x20, 0x01, 0x00, 0x20], 28, "ORCHIDv2"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "documentation"],
  [[0x3f, 0xff], 20, "documentation"],
];

/** Hostnames refused before any DNS lookup (OpenClaw `src/infra/net/ssrf.ts`). */
export const BLOCKED_HOSTNAMES: readonly string[] = [
  "localhost",
  "localhost.localdomain",
  "metadata.google.internal",
];
export const BLOCKED_HOSTNAME_SUFFIXES: readonly string[] = [".localhost", ".local", ".internal"];
