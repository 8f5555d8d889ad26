import {
  checkUrl,
  isSsrfBlockedError,
  type Lookup,
  systemLookup,
  ToolInputError,
  type UrlPolicy,
} from "@clawtools/core";
import type { BrowserContext } from "playwright-core";

/** Schemes a page may load without a network check (they reach nothing outside the browser). */
const LOCAL_SCHEMES = new Set(["about:", "data:", "blob:"]);

/**
 * Checks a URL the model asked for before any navigation: http(s) through core's URL policy
 * (the same as web_fetch: private, loopback and special-use addresses refused unless allowed),
 * `about:blank` allowed, everything else (file:, chrome:, javascript:) refused.
 */
export async function checkNavigation(
  url: string,
  policy: UrlPolicy,
  lookup: Lookup = systemLookup,
): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolInputError(`Invalid URL: ${url.slice(0, 200)}`);
  }
  if (parsed.protocol === "about:" && parsed.href === "about:blank") return parsed.href;
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new ToolInputError(`Only http and https URLs can be opened (got ${parsed.protocol.slice(0, 20)}).`);
  try {
    await checkUrl(parsed.href, policy, lookup);
  } catch (error) {
    if (isSsrfBlockedError(error))
      throw new ToolInputError(`Navigation to ${parsed.host} blocked: ${(error as Error).message}`);
    throw error;
  }
  return parsed.href;
}

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
