/**
 * URLs that are credentials by themselves: whoever holds one can post as its owner (Slack and
 * Discord incoming webhooks), or it carries a password or a token in its query.
 */

// Query parameters that carry a credential.
const SECRET_PARAM = /^(?:token|access_token|auth|key|api[-_]?key|secret|sig|signature|password|pass)$/i;

/** Whether `value` is a URL that grants access on its own (and so must be treated as a secret). */
export function isCredentialUrl(value: string): boolean {
  if (typeof value !== "string" || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) return false;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return false;
  }
  if (url.password) return true;
  const host = url.hostname.toLowerCase();
  if (host === "hooks.slack.com" || host.endsWith(".hooks.slack.com")) return true;
  if (/(^|\.)discord(app)?\.com$/.test(host) && /\/api\/(v\d+\/)?webhooks\//.test(url.pathname)) return true;
  for (const name of url.searchParams.keys()) if (SECRET_PARAM.test(name)) return true;
  return false;
}

/**
 * A copy of a JSON value (a configuration document, say) with every credential URL, and every
 * string under a key naming a webhook URL, replaced by `marker`.
 */
export function maskCredentialUrls(value: unknown, marker: string, key = ""): unknown {
  if (typeof value === "string")
    return isCredentialUrl(value) || (/webhook(?:[-_]?url)?$/i.test(key) && value.includes("://"))
      ? marker
      : value;
  if (Array.isArray(value)) return value.map((item) => maskCredentialUrls(item, marker, key));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskCredentialUrls(v, marker, k)]));
}

// Keys whose string values are credentials in a configuration document.
const SECRET_KEY =
  /(?:token|secret|password|passwd|api[-_]?key|private[-_]?key|credential|webhook[-_]?url)s?$/i;

/**
 * The credential strings in a JSON document: values under secret-named keys (`botToken`,
 * `apiKey`, `webhookUrl`…) and credential URLs anywhere. For registering a configuration's
 * secrets with `registerSecrets`.
 */
export function secretsInDocument(value: unknown, key = "", out: string[] = []): string[] {
  if (typeof value === "string") {
    if (SECRET_KEY.test(key) || isCredentialUrl(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) secretsInDocument(item, key, out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) secretsInDocument(v, k, out);
  }
  return out;
}
