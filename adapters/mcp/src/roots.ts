import { fileURLToPath } from "node:url";
import type { Server } from "@modelcontextprotocol/server";

/** A root the client offered: its `file://` URI, the local path it names, and its name if any. */
export interface McpRoot {
  uri: string;
  path: string;
  name?: string;
}

/** A client that declared roots but does not answer roots/list holds calls back this long at most. */
export const ROOTS_TIMEOUT_MS = 10_000;

/** Called with the client's roots each time they are (re)read; a throw is logged, not sent. */
export type RootsListener = (roots: McpRoot[]) => void | Promise<void>;

function toRoot(root: { uri: string; name?: string | undefined }): McpRoot | undefined {
  // roots are file:// URIs by the spec; anything else names no local directory
  if (!root.uri.startsWith("file://")) return undefined;
  try {
    return { uri: root.uri, path: fileURLToPath(root.uri), ...(root.name ? { name: root.name } : {}) };
  } catch {
    return undefined;
  }
}

/** A request's own `ctx.mcpReq.send`, narrowed to what reading roots needs. */
export type SendRootsList = (
  request: { method: "roots/list" },
  options: { timeout: number },
) => Promise<{ roots: Array<{ uri: string; name?: string | undefined }> }>;

/**
 * Follows a 2025-era client's roots: read once the client has initialised (when it declared the
 * `roots` capability) and again on every `notifications/roots/list_changed`. Reads run one after
 * the other, and `settled()` resolves once the latest has been handed to the listener, so a
 * request that waits for it runs against the roots the client announced before it.
 *
 * `onRequest` (Streamable HTTP): the roots are not pushed the moment they change, since a server
 * request with no request to answer rides the client's event stream, which may not be open yet
 * and drops it; they are marked stale and read by the next listing or call, on its own response
 * stream (`settled(send)`).
 */
export function followRoots(
  server: Server,
  listener: RootsListener,
  log: (message: string) => void,
  options: { onRequest?: boolean } = {},
) {
  let latest: Promise<void> = Promise.resolve();
  let stale = false;
  const read = (list: () => Promise<{ roots: Array<{ uri: string; name?: string | undefined }> }>) => {
    latest = latest.then(async () => {
      try {
        const { roots } = await list();
        const usable = roots.map(toRoot).filter((r): r is McpRoot => r !== undefined);
        if (usable.length < roots.length)
          log(`ignored ${roots.length - usable.length} root(s) that are not file:// URIs`);
        await listener(usable);
      } catch (error) {
        log(`could not read the client's roots: ${(error as Error).message}`);
      }
    });
  };
  const changed = () => {
    if (!server.getClientCapabilities()?.roots) return;
    if (options.onRequest) stale = true;
    else read(() => server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS }));
  };
  const initialized = server.oninitialized;
  server.oninitialized = () => {
    initialized?.();
    changed();
  };
  server.setNotificationHandler("notifications/roots/list_changed", changed);
  return {
    settled: async (send?: SendRootsList) => {
      // the SDK runs a notification's handler a microtask after it arrives, and a request's at
      // once: a turn of the event loop lets a list_changed that came first start its read
      await new Promise((resolve) => setImmediate(resolve));
      if (stale && send) {
        stale = false;
        read(() => send({ method: "roots/list" }, { timeout: ROOTS_TIMEOUT_MS }));
      }
      await latest;
    },
  };
}
