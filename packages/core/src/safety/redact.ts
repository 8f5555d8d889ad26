/**
 * The one redaction path: a process-wide registry of the secret values the server knows
 * (provider keys, channel tokens, credential URLs, gateway tokens, `serve --token`) and the
 * functions that take them out of any text or value before it reaches a tool result, an error,
 * a transcript, a run log or stderr.
 *
 * Matching is exact substring search (`indexOf`, no regular expressions), one pass per
 * registered form, so the cost is linear in the input for a fixed set of secrets.
 */

import { isCredentialUrl } from "./credential-url.js";

/** What a secret is replaced with. */
export const REDACTED_MARKER = "[redacted]";

/** Shorter values are not registered: they would redact ordinary words (and are not keys). */
export const MIN_SECRET_LENGTH = 8;

// The registry lives on globalThis so every copy of core in the process shares it (source and
// dist builds loaded side by side, say).
const KEY = Symbol.for("clawtools.secret-registry");
interface Registry {
  /** form → how many registrations hold it */
  forms: Map<string, number>;
  /** the forms, longest first (so a URL goes before the token inside it); null when stale */
  sorted: string[] | null;
}
const holder = globalThis as Record<symbol, Registry | undefined>;
holder[KEY] ??= { forms: new Map(), sorted: null };
const registry: Registry = holder[KEY];

/** The spellings one secret can take in text: as is, URL-encoded, JSON-escaped, a URL's parts. */
function formsOf(value: string): string[] {
  const forms = new Set<string>([value]);
  const add = (s: string | undefined) => {
    if (s && s.length >= MIN_SECRET_LENGTH) forms.add(s);
  };
  try {
    add(encodeURIComponent(value));
  } catch {
    // a lone surrogate cannot be encoded; the raw form stays
  }
  add(JSON.stringify(value).slice(1, -1));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      add(url.href);
      // a credential URL's secret part shows up alone in request lines and some errors
      const rest = `${url.pathname}${url.search}`;
      if (rest.length > 1) add(rest);
      add(url.password);
      add(decodeURIComponent(url.password));
    } catch {
      // not a URL after all: the raw forms cover it
    }
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH && !REDACTED_MARKER.includes(f));
}

/**
 * Registers a secret value for redaction everywhere in the process; returns a function that
 * unregisters it (registrations are counted, so two owners of one value do not clash).
 * Values shorter than `MIN_SECRET_LENGTH` (after trimming) are ignored.
 */
export function registerSecret(value: string | undefined | null): () => void {
  const trimmed = typeof value === "string" ? value.trim() : "";
  if (trimmed.length < MIN_SECRET_LENGTH) return () => {};
  const forms = formsOf(trimmed);
  for (const f of forms) registry.forms.set(f, (registry.forms.get(f) ?? 0) + 1);
  registry.sorted = null;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const f of forms) {
      const n = (registry.forms.get(f) ?? 1) - 1;
      if (n <= 0) registry.forms.delete(f);
      else registry.forms.set(f, n);
    }
    registry.sorted = null;
  };
}

/** Registers several values at once; one function unregisters them all. */
export function registerSecrets(values: Iterable<string | undefined | null>): () => void {
  const undo = [...values].map(registerSecret);
  return () => {
    for (const u of undo) u();
  };
}

// Names of environment variables whose values are credentials.
const SECRET_ENV_NAME =
  /(?:^|_)(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|ACCESS_KEY|PRIVATE_KEY|WEBHOOK_URL)$/i;

/**
 * Registers the values of the environment's credential variables (`*_API_KEY`, `*_TOKEN`,
 * `*_SECRET`, `*_PASSWORD`, `*_WEBHOOK_URL`, …) and every credential URL in it (a Slack or
 * Discord webhook, a URL with a password or a token): the server's keys never echo back.
 */
export function registerEnvSecrets(env: NodeJS.ProcessEnv = process.env): () => void {
  return registerSecrets(
    Object.entries(env)
      .filter(([name, v]) => SECRET_ENV_NAME.test(name) || (v !== undefined && isCredentialUrl(v)))
      .map(([, v]) => v),
  );
}

/** Whether any secret is registered (callers can skip work when none is). */
export function hasSecrets(): boolean {
  return registry.forms.size > 0;
}

function sortedForms(): string[] {
  registry.sorted ??= [...registry.forms.keys()].sort((a, b) => b.length - a.length);
  return registry.sorted;
}

/** Replaces every occurrence of `form` in `text`; one left-to-right `indexOf` scan. */
function replaceAll(text: string, form: string, marker: string): string {
  let at = text.indexOf(form);
  if (at < 0) return text;
  const parts: string[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(text.slice(from, at), marker);
    from = at + form.length;
    at = text.indexOf(form, from);
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/** The text with every registered secret (in any of its forms) replaced by `[redacted]`. */
export function redactSecrets(text: string, extra?: Iterable<string | undefined>): string {
  if (typeof text !== "string" || text.length === 0) return text;
  let forms = sortedForms();
  if (extra) {
    const more = [...extra].flatMap((v) =>
      v && v.trim().length >= MIN_SECRET_LENGTH ? formsOf(v.trim()) : [],
    );
    if (more.length) forms = [...new Set([...forms, ...more])].sort((a, b) => b.length - a.length);
  }
  let out = text;
  for (const form of forms) if (form.length <= out.length) out = replaceAll(out, form, REDACTED_MARKER);
  return out;
}

/**
 * A copy of `value` with every string in it redacted: arrays and plain objects are walked (keys
 * too), anything else (buffers, class instances) is kept as is. Returns `value` itself when
 * nothing changed, so unchanged results keep their identity.
 */
export function redactValue<T>(value: T): T {
  if (!hasSecrets()) return value;
  return walk(value, new Map()) as T;
}

function walk(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    let changed = false;
    for (const item of value) {
      const next = walk(item, seen);
      changed ||= next !== item;
      out.push(next);
    }
    if (!changed) seen.set(value, value);
    return changed ? out : value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  seen.set(value, out);
  let changed = false;
  for (const [key, item] of Object.entries(value)) {
    const k = redactSecrets(key);
    const next = walk(item, seen);
    changed ||= next !== item || k !== key;
    out[k] = next;
  }
  if (!changed) seen.set(value, value);
  return changed ? out : value;
}

/** An error's message (and stack) with the registered secrets taken out, as a new Error. */
export function redactError(error: unknown): unknown {
  if (!hasSecrets()) return error;
  if (typeof error === "string") return redactSecrets(error);
  if (!(error instanceof Error)) return redactValue(error);
  const message = redactSecrets(error.message);
  const stack = error.stack === undefined ? undefined : redactSecrets(error.stack);
  if (message === error.message && stack === error.stack) return error;
  // keep the class (ToolInputError stays a ToolInputError) without touching the original
  const copy = Object.create(Object.getPrototypeOf(error)) as Error;
  for (const key of Object.getOwnPropertyNames(error)) {
    const v = (error as unknown as Record<string, unknown>)[key];
    Object.defineProperty(copy, key, {
      value: key === "message" ? message : key === "stack" ? stack : redactValue(v),
      writable: true,
      configurable: true,
      enumerable: Object.prototype.propertyIsEnumerable.call(error, key),
    });
  }
  return copy;
}
