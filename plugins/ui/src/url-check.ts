import { ToolInputError } from "@clawtools/core";
import {
  checkUrl,
  isSsrfBlockedError,
  type Lookup,
  systemLookup,
  type UrlPolicy,
} from "@clawtools/core/safety";
import type { BrowserConfig } from "./config.js";

/** The URL policy a browser configuration asks for (the same as web_fetch unless loosened). */
export const browserPolicy = (config: BrowserConfig): UrlPolicy => ({
  ...(config.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
  ...(config.allowedHostnames ? { allowedHostnames: config.allowedHostnames } : {}),
});

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
