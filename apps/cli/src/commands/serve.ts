import { startProcessGroupReaper } from "@clawtools/core/lifecycle";
import { redactSecrets, registerSecret } from "@clawtools/core/safety";
// stdio's entry answers a client's opening before it loads the MCP SDK; HTTP loads it with the adapter
import { serveStdio } from "@clawtools/mcp/stdio";
import type { CommonOptions } from "../options.js";
import { installOtel } from "../otel.js";
import { followClientRoots } from "../roots.js";
import { startWhenQuiet } from "../start-when-quiet.js";

/** The signals that stop serve (the stdio lifecycle's own). */
const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
import { reserveStdoutForProtocol } from "../stdout-guard.js";
import { taskHostFor, taskPrincipal } from "../tasks.js";
import { buildToolset } from "../toolset.js";
import { UsageError } from "../usage-error.js";
import { CLI_VERSION } from "../version.js";

/** A port that cannot be listened on is a usage problem: one line naming the port and the way out. */
function listenProblem(error: NodeJS.ErrnoException, port: number, host: string): Error {
  if (error.code === "EADDRINUSE")
    return new UsageError(
      `--http ${port}: port ${port} on ${host} is in use by another program: stop it, or pick another port (--http 0 takes a free one)`,
    );
  if (error.code === "EACCES")
    return new UsageError(
      `--http ${port}: not allowed to listen on port ${port} on ${host}: pick a port above 1023`,
    );
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND")
    return new UsageError(
      `--host ${host}: not an address of this machine: use 127.0.0.1 or one of its addresses`,
    );
  return error;
}

/** Listens on the port for a moment: a taken port (or a host that is not ours) is a usage error. */
async function probePort(port: number, host: string): Promise<void> {
  const { createServer } = await import("node:net");
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => reject(listenProblem(error, port, host)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Session keys of `serve --http` clients: `agent:cli:mcp-<MCP session id>` (stdio's client is `agent:cli:main`). */
export const HTTP_SESSION_PREFIX = "agent:cli:mcp-";

/**
 * MCP over stdio (or Streamable HTTP with --http). stdout belongs to the protocol: every log line
 * goes to stderr. Stops at end of input or on SIGTERM / SIGINT / SIGHUP, disposing the toolset
 * and every plugin (the runtime kills its running and background processes).
 */
export async function serveCommand(options: CommonOptions): Promise<number> {
  const token = options.token ?? (process.env.CLAWTOOLS_MCP_TOKEN || undefined);
  if (options.host !== undefined && !token) {
    const { isLoopbackHost, tokenRequiredMessage } = await import("@clawtools/mcp");
    if (!isLoopbackHost(options.host)) throw new UsageError(tokenRequiredMessage(options.host));
  }
  registerSecret(token);
  if (options.root !== undefined && options.workspaceGiven)
    throw new UsageError(
      "--root picks one of the client's roots; --workspace fixes the workspace: give one of them",
    );
  // a port that is taken fails the start before anything loads or logs (the listen below says it too)
  if (options.http) await probePort(options.http, options.host ?? "127.0.0.1");
  // before any plugin or section loads: what they print must not land between protocol messages
  // serve's quiet watch (below) hears each answer written
  let wrote = () => {};
  const protocolOut = options.http === undefined ? reserveStdoutForProtocol(() => wrote()) : undefined;
  const early = (line: string) => process.stderr.write(redactSecrets(`[clawtools] ${line}\n`));
  // before the first call: its span goes to the collector
  const stopTraces = options.otel ? await installOtel(early) : undefined;
  // what serve uses as its own secrets (the store's, the Gateway's, --http's token, provider keys)
  // never reaches a command it runs: the bundle withholds them, but for the config's passEnv
  const set = await buildToolset(options, { profile: "coding", store: true, secrets: [token] });
  const log = (line: string) => process.stderr.write(redactSecrets(`[clawtools] ${line}\n`));
  log(
    `serving ${set.tools.length} tools from ${set.context.workspaceDir}: ${set.tools.map((t) => t.name).join(", ")}`,
  );
  log(`state: ${set.state}`);
  for (const d of set.diagnostics)
    if (!/^(not allowed|denied) by/.test(d.reason)) log(`left out ${d.message}`);
  const served = new Set(set.tools.map((t) => t.name));
  for (const named of set.namedPlugins) {
    const tools = named.tools.filter((name) => served.has(name));
    log(
      `plugin ${named.plugin.id} (${named.spec}): ${tools.length ? `serving ${tools.join(", ")}` : "no tool served (all denied)"}`,
    );
  }
  // what a host sees: every tool, or the Tool Search or code mode controls over the same catalog and policy
  const surface = set.surface;
  if (surface !== "direct")
    log(
      `surface: ${surface} (${surface === "code" ? "exec, wait" : "tool_search, tool_describe, dispatch_action"} over the ${set.tools.length} tools)`,
    );
  const tasks = await taskHostFor(set, log);
  const common = {
    name: "clawtools",
    version: CLI_VERSION,
    log,
    ...(tasks ? { tasks, principal: taskPrincipal(set.context.agentId, token) } : {}),
    onStop: async () => {
      await tasks?.close();
      await set.close();
      // the spans still buffered go out before the process ends
      await stopTraces?.();
    },
    ...(options.maxMessageMb !== undefined
      ? { maxMessageBytes: Math.floor(options.maxMessageMb * 1024 * 1024) }
      : {}),
    ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
  };
  // without --workspace, the client's roots (when it offers some) say where the tools work
  const root = set.config.serve.root;
  if (options.http !== undefined) {
    const origins = options.allowOrigin ?? set.http.allowOrigins;
    const idleMinutes = options.sessionIdleMinutes ?? set.http.sessionIdleMinutes;
    const maxSessions = options.maxSessions ?? set.http.maxSessions;
    const { serveHttp } = await import("@clawtools/mcp");
    const serving = await serveHttp(set.surfaced(), {
      ...common,
      port: options.http,
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(token ? { token } : {}),
      ...(origins ? { allowedOrigins: origins } : {}),
      ...(idleMinutes !== undefined ? { sessionIdleMs: Math.max(1, Math.round(idleMinutes * 60_000)) } : {}),
      ...(maxSessions !== undefined ? { maxSessions } : {}),
      // each MCP client is an agent session of its own: its processes, sub-agents and announces,
      // rooted (without --workspace) in that client's roots alone
      sessionToolset: async ({ sessionId }) => {
        const own = await set.forSession(`${HTTP_SESSION_PREFIX}${sessionId}`);
        if (options.workspaceGiven) return set.surfaced(own);
        const rooted = followClientRoots(own, set.context.workspaceDir ?? options.workspace, {
          ...(root ? { root } : {}),
          log: (line) => log(`session ${sessionId}: ${line}`),
        });
        return set.surfaced(Object.assign(rooted.toolset, { onRoots: rooted.onRoots }));
      },
    }).catch(async (error: NodeJS.ErrnoException) => {
      await set.close();
      throw listenProblem(error, options.http!, options.host ?? "127.0.0.1");
    });
    log(`MCP over Streamable HTTP at ${serving.url}${token ? " (bearer token required)" : ""}`);
    void set.startState();
    log(
      `each HTTP client gets its own agent session (${HTTP_SESSION_PREFIX}<session id>; a 2026-07-28 client, which has no session: ${HTTP_SESSION_PREFIX}c-<hash of its clientInfo, token, address and Clawtools-Client-Id>)` +
        (origins?.length ? `; browser origins allowed: ${origins.join(", ")}` : ""),
    );
    await serving.done;
    return 0;
  }
  const rooted = options.workspaceGiven
    ? undefined
    : followClientRoots(set, set.context.workspaceDir ?? options.workspace, {
        ...(root ? { root } : {}),
        log,
      });
  const serving = await serveStdio(set.surfaced(rooted?.toolset ?? set), {
    ...common,
    ...(protocolOut ? { output: protocolOut } : {}),
    ...(rooted ? { onRoots: rooted.onRoots } : {}),
  });
  // the sections with state (cron's scheduler) start once the client is quiet: neither the
  // listing nor the first call waits for them. So does exec's process-group reaper (a spawn that
  // blocks until its shell runs), which a first command would otherwise wait for
  const execServed = served.has("exec");
  const quiet = startWhenQuiet(process.stdin, () => {
    if (execServed) startProcessGroupReaper();
    void set.startState();
  });
  wrote = () => quiet.wrote();
  // a stop signal before the quiet moment starts nothing (the toolset is being disposed)
  const cancelQuiet = () => quiet.cancel();
  for (const signal of STOP_SIGNALS) process.once(signal, cancelQuiet);
  await serving.done;
  quiet.cancel();
  for (const signal of STOP_SIGNALS) process.off(signal, cancelQuiet);
  return 0;
}
