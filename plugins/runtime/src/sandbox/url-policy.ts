import type { UrlPolicy } from "@clawtools/core/safety";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The sandbox's network follows web_fetch's URL policy: `config.web.fetch` (`allowPrivateNetwork`
 * and OpenClaw's `ssrfPolicy`), read here from the shared config; absent, the strict default.
 */
export function sandboxUrlPolicy(config: Record<string, unknown> | undefined): UrlPolicy {
  const fetch = isObject(config?.web) && isObject(config.web.fetch) ? config.web.fetch : {};
  const p = isObject(fetch.ssrfPolicy) ? fetch.ssrfPolicy : {};
  const hostnames = Array.isArray(p.allowedHostnames)
    ? p.allowedHostnames.filter((h) => typeof h === "string")
    : [];
  return {
    ...(fetch.allowPrivateNetwork === true ||
    p.allowPrivateNetwork === true ||
    p.dangerouslyAllowPrivateNetwork === true
      ? { allowPrivateNetwork: true }
      : {}),
    ...(p.allowRfc2544BenchmarkRange === true ? { allowRfc2544BenchmarkRange: true } : {}),
    ...(hostnames.length ? { allowedHostnames: hostnames as string[] } : {}),
  };
}
