import { checkUrl, type Lookup, systemLookup, type UrlPolicy } from "@clawtools/core/safety";
import type { BrowserContext } from "playwright-core";

/** Schemes a page may load without a network check (they reach nothing outside the browser). */
const LOCAL_SCHEMES = new Set(["about:", "data:", "blob:"]);

/**
 * For a Chromium we attach to (profile "user"), which does not run through our egress proxy:
 * every request a page makes is checked here and aborted when refused. Playwright does not
 * route redirect hops, WebSockets or worker requests, and Chromium resolves names again, so
 * this is weaker than the proxy the managed profile runs with (see the README).
 */
export async function guardContext(
  context: BrowserContext,
  policy: UrlPolicy,
  lookup: Lookup = systemLookup,
): Promise<void> {
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
    if (LOCAL_SCHEMES.has(scheme)) return route.continue();
    if (scheme !== "http:" && scheme !== "https:") return route.abort("blockedbyclient");
    try {
      await checkUrl(url, policy, lookup);
    } catch {
      return route.abort("blockedbyclient");
    }
    return route.continue();
  });
}
