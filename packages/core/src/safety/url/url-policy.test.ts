import { describe, expect, it } from "vitest";
import {
  BLOCKED_HOST,
  BLOCKED_RESOLVED,
  blockedReason,
  checkUrl,
  createPinnedLookup,
  isSsrfBlockedError,
  parseIpLiteral,
  resolvePinned,
} from "./index.js";

const publicLookup = async () => [{ address: "93.184.216.34", family: 4 }];
const refusedHosts = [
  "localhost",
  "127.0.0.1",
  "[::1]",
  "0.0.0.0",
  "169.254.169.254",
  "10.1.2.3",
  "172.16.0.1",
  "172.31.255.255",
  "192.168.1.1",
  "100.64.0.1",
  "198.18.0.1",
  "198.19.255.1",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[fe80::1]",
  "[fc00::1]",
  "[64:ff9b::a00:1]",
  "0x7f.1",
  "2130706433",
  "0177.0.0.1",
  "127.1",
  "metadata.google.internal",
  "printer.local",
];

describe("URL policy: hosts and addresses", () => {
  it.each(refusedHosts)("refuses %s by default", async (host) => {
    const error = await resolvePinned(host, {}, publicLookup).catch((e: unknown) => e);
    expect(isSsrfBlockedError(error)).toBe(true);
    expect((error as Error).message).toBe(BLOCKED_HOST);
  });

  it("allows every one of them with allowPrivateNetwork, except the legacy IP forms (they fail closed)", async () => {
    for (const host of refusedHosts) {
      const outcome = await resolvePinned(host, { allowPrivateNetwork: true }, publicLookup).then(
        () => "allowed",
        (e: Error) => e.message,
      );
      const legacy = ["0x7f.1", "2130706433", "0177.0.0.1", "127.1"].includes(host);
      expect(outcome, host).toBe(legacy ? BLOCKED_HOST : "allowed");
    }
  });

  it("refuses a public-looking name whose DNS answer is private, checking every address", async () => {
    const lookup = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ];
    await expect(resolvePinned("totally-public.example", {}, lookup)).rejects.toThrow(BLOCKED_RESOLVED);
  });

  it("judges IPv6 transition addresses by the IPv4 address they embed (Teredo, 6to4, NAT64, ISATAP, SIIT)", () => {
    const cases: Array<[string, string | undefined]> = [
      // Teredo 2001::/32 carries the client address inverted in the last 32 bits
      ["2001:0:4136:e378:8000:63bf:80ff:fffe", "embedded IPv4 127.0.0.1 is loopback"],
      ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "embedded IPv4 10.0.0.1 is private"],
      ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", undefined], // 8.8.8.8
      // 6to4 2002::/16 carries it in bits 16..48
      ["2002:a9fe:a9fe::1", "embedded IPv4 169.254.169.254 is link-local"],
      ["2002:c0a8:0101::", "embedded IPv4 192.168.1.1 is private"],
      ["2002:0808:0808::1", undefined],
      // NAT64 well-known and local-use prefixes
      ["64:ff9b::7f00:1", "embedded IPv4 127.0.0.1 is loopback"],
      ["64:ff9b:1::a9fe:a9fe", "embedded IPv4 169.254.169.254 is link-local"],
      ["64:ff9b::808:808", undefined],
      // ISATAP interface id and SIIT
      ["2600:1f18::5efe:a00:1", "embedded IPv4 10.0.0.1 is private"],
      ["::ffff:0:a00:1", "embedded IPv4 10.0.0.1 is private"],
      ["::ffff:8.8.8.8", undefined],
      // plain IPv6 special ranges stay refused on their own
      ["2001:db8::1", "documentation"],
      ["2606:4700::1111", undefined],
    ];
    for (const [address, reason] of cases) {
      const ip = parseIpLiteral(address);
      expect(ip, address).toBeDefined();
      expect(blockedReason(ip!), address).toBe(reason);
    }
  });

  it("refuses transition addresses that embed private IPv4 as URL hosts and as DNS answers", async () => {
    await expect(resolvePinned("[2001:0:4136:e378:8000:63bf:80ff:fffe]", {})).rejects.toThrow(BLOCKED_HOST);
    const lookup = async () => [{ address: "2002:7f00:1::", family: 6 }];
    await expect(resolvePinned("six-to-four.example", {}, lookup)).rejects.toThrow(BLOCKED_RESOLVED);
    expect(await resolvePinned("[2002:0808:0808::1]", {})).toEqual([
      { address: "2002:0808:0808::1", family: 6 },
    ]);
  });

  it("allows named hosts and the RFC 2544 range only when the policy says so", async () => {
    const lookup = async () => [{ address: "10.0.0.8", family: 4 }];
    await expect(resolvePinned("wiki.corp.example", {}, lookup)).rejects.toThrow(BLOCKED_RESOLVED);
    expect(
      await resolvePinned("wiki.corp.example", { allowedHostnames: ["*.corp.example"] }, lookup),
    ).toEqual([{ address: "10.0.0.8", family: 4 }]);
    expect(await resolvePinned("198.18.0.1", { allowRfc2544BenchmarkRange: true })).toEqual([
      { address: "198.18.0.1", family: 4 },
    ]);
  });

  it("checkUrl takes http and https only", async () => {
    await expect(checkUrl("file:///etc/passwd")).rejects.toThrow("Invalid URL: must be http or https");
    await expect(checkUrl("not a url")).rejects.toThrow("Invalid URL: not a url");
    await expect(checkUrl("http://127.0.0.1:9/")).rejects.toThrow(BLOCKED_HOST);
    const ok = await checkUrl("https://example.test/x", {}, publicLookup);
    expect(ok.addresses).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it("createPinnedLookup answers with the checked addresses whatever name is asked", async () => {
    const lookup = createPinnedLookup([{ address: "127.0.0.1", family: 4 }]);
    const one = await new Promise((resolve) =>
      lookup("evil.example", {}, (_e, address, family) => resolve([address, family])),
    );
    expect(one).toEqual(["127.0.0.1", 4]);
    const all = await new Promise((resolve) =>
      lookup("evil.example", { all: true }, (_e, list) => resolve(list)),
    );
    expect(all).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });
});
