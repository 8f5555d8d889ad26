import { redactSecrets } from "../safety/redact.js";

/** The URL's origin: what an error may name (a path or query can hold a token). */
export function targetOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "the endpoint";
  }
}

const CREDENTIAL_PARAM = /key|token|secret|sig|auth|password|credential/i;

/**
 * The request's own credentials, taken out of errors even when nobody registered them: every
 * header value (and the token after a scheme like `Bearer`), the URL's password and its
 * credential-looking query values, and the caller's extras.
 */
export function secretsOf(url: string, headers: Record<string, string>, extra: string[] = []): string[] {
  const out = [...extra];
  for (const value of Object.values(headers)) {
    out.push(value);
    const space = value.indexOf(" ");
    if (space > 0) out.push(value.slice(space + 1));
  }
  try {
    const parsed = new URL(url);
    if (parsed.password) out.push(parsed.password, decodeURIComponent(parsed.password));
    for (const [name, value] of parsed.searchParams) if (CREDENTIAL_PARAM.test(name)) out.push(value);
  } catch {
    // not a URL: nothing more to hide
  }
  // short values (content types, "1") would redact ordinary words
  return out.filter((s) => s.length >= 8 && !/^(application|text|multipart)\//.test(s));
}

/** Secrets out, whitespace collapsed, then cut to `max` characters. */
export function excerptOf(text: string, secrets: string[], max: number): string {
  const clean = redactSecrets(text, secrets).replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
