import { registerSecret } from "@clawtools/core/safety";
import { BundleConfigError } from "./errors.js";

/**
 * Where sessions, runs and cron jobs live: the embedded files under the state directory (the
 * default), or PostgreSQL when `--store postgres://…` (or the config file's `"store"`) names a
 * database. Two `serve` processes on one database share them whatever their state directories.
 */

const PROTOCOLS = new Set(["postgres:", "postgresql:"]);

/** The URL with its password left out, for messages and logs. */
export function redactStoreUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "";
    // pg also takes the password as a query parameter
    url.searchParams.delete("password");
    return url.toString();
  } catch {
    // not a URL: whatever sits between "//" and "@" may be credentials
    return raw.replace(/\/\/[^/@]*@/, "//…@");
  }
}

/**
 * Checks a store URL (`where` names the flag or config key) and registers its password as a
 * secret of the process, so no log line or tool result carries it. Only PostgreSQL URLs are
 * stores; the password may also come from PGPASSWORD (pg's convention), never the choice of store.
 */
export function checkStoreUrl(raw: unknown, where: string): string {
  const usage = `${where} takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB`;
  if (typeof raw !== "string" || raw.trim() === "")
    throw new BundleConfigError(`${usage}, got ${JSON.stringify(raw)}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BundleConfigError(`${usage}, got "${redactStoreUrl(raw)}" (not a URL)`);
  }
  if (url.password) registerSecret(decodeURIComponent(url.password));
  const queryPassword = url.searchParams.get("password");
  if (queryPassword) registerSecret(queryPassword);
  if (!PROTOCOLS.has(url.protocol))
    throw new BundleConfigError(`${usage} (postgres:// or postgresql://), got "${redactStoreUrl(raw)}"`);
  if (!url.hostname && !url.searchParams.get("host"))
    throw new BundleConfigError(`${usage}, got "${redactStoreUrl(raw)}" (no host)`);
  return raw;
}
