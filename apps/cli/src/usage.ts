// The help texts, and how a usage problem is told apart: no import, so `--help` and `--version`
// load nothing else (the error class itself, which extends core's, is in usage-error.ts).
export const USAGE_ERROR = Symbol.for("clawtools.error.UsageError");
import type { UsageError } from "./usage-error.js";

/** Whether `error` is a UsageError from any copy of this package (its brand, not `instanceof`). */
export function isUsageError(error: unknown): error is UsageError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[USAGE_ERROR] === true
  );
}

/** Whether `error` is a configuration the bundle refused (clawtools' BundleConfigError, told by its code): a usage problem too. */
export function isConfigProblem(error: unknown): error is Error {
  return (
    isUsageError(error) ||
    (error instanceof Error && (error as { code?: unknown }).code === "CLAWTOOLS_BUNDLE_CONFIG")
  );
}

export const COMMANDS = ["list", "describe", "schema", "call", "serve", "doctor"] as const;
export type CommandName = (typeof COMMANDS)[number];

const COMMON = `  --workspace <dir>   workspace root (default: current directory)
  --profile <id>      minimal | coding | messaging | full
  --allow <names>     allow only these tools / groups (comma-separated, repeatable)
  --deny <names>      deny these tools / groups (comma-separated, repeatable)
  --owner             the caller is the owner (unlocks owner-only tools)
  --provider <id>     openai | openai-responses | anthropic | gemini (google) (schema normalisation)
  --config <file>     JSON configuration: { "runtime": {…}, "web": {…}, "fs": {…}, "memory": {…},
                      "stateDir": "…" }, checked against each installed section's schema
                      (without --config: the file $CLAWTOOLS_CONFIG names)
  --state-dir <dir>   where derived state goes (default: one directory per workspace under
                      $XDG_STATE_HOME/clawtools, or $CLAWTOOLS_STATE_DIR)
  --allow-private-network
                      let web_fetch and the browser reach loopback and private
                      addresses (local development)
  --model <p/m>       provider/model for sub-agents (sessions_spawn, sessions_send) and image;
                      each provider's own key and endpoint: OPENAI_API_KEY /
                      OPENAI_BASE_URL, ANTHROPIC_API_KEY, GEMINI_API_KEY, XAI_API_KEY…
                      (a key is sent only to its own provider)
  --nodes local       this machine as a node (the nodes tool)
  --plugin <pkg|path> load a clawtools plugin (its default or "plugin" export; repeatable; config
                      "plugins"): checked as the contract kit checks it, served under every
                      profile (--deny still removes its tools); an OpenClaw plugin (a package
                      with openclaw.plugin.json) loads as it is
  --plugin-replaces <section>
                      let a named OpenClaw plugin whose tools collide with that section's
                      replace the section (--plugin-replaces memory for @mem0/openclaw-mem0)
  -h, --help          show help`;

export const HELP: Record<CommandName | "main", string> = {
  main: `clawtools — OpenClaw's agent tools as a library, a CLI and an MCP server

Usage: clawtools <command> [options]

Commands:
  list                    sections and tools, which are installed, and what serve would serve
  describe <tool>         one tool: metadata and input schema
  schema --provider <p>   tool definitions in a provider's wire format
  call <tool> --args <json> | --args-file <file>
                          run one tool and print its result (exit 1 on a tool error)
  serve                   serve the tools over MCP on stdio (or Streamable HTTP with --http)
  doctor                  what serve would serve here, what is left out and how to turn it on
  exec-policy check -- <command…>
                          how the exec policy (config runtime.execPolicy) decides a command
  undo --list | --to <id> list / undo / redo the changes tools made (clawtools undo --help)

  -v, --version           print the version

Run 'clawtools <command> --help' for the options of a command.`,
  list: `Usage: clawtools list [options]

Lists every section and tool of the catalog plus the tools of --plugin / the config's plugins and
mounted MCP servers, with whether each is available in this installation and workspace
(missing: its section is not installed; unavailable: installed but left out here, with the
reason, such as an API key to set), which profiles include it, and where it comes from; last,
exactly the tools serve with the same options and config would serve.

Options:
${COMMON}
  --json              machine-readable output`,
  describe: `Usage: clawtools describe <tool> [options]

Options:
${COMMON}`,
  schema: `Usage: clawtools schema --provider <openai|openai-responses|anthropic|gemini|google> [options]

Prints the tool definitions (after policy) in the provider's format, as JSON.

Options:
${COMMON}
  --strict            OpenAI strict mode (openai, openai-responses)`,
  call: `Usage: clawtools call <tool> (--args <json> | --args-file <file>) [options]

Runs one tool through the full pipeline and prints its text result. Exit code 1 when the result
is an error.

Options:
${COMMON}
  --args <json>       arguments as a JSON object
  --args-file <file>  read the arguments from a JSON file
  --json              print the whole result as JSON`,
  doctor: `Usage: clawtools doctor [options]

Plain lines: the Node version, which tools serve (with the same options) would serve by section,
each left out with the reason, and what the machine has for the sections that need more than
Node: Chromium (browser, canvas), espeak-ng (tts), a display (Xvfb, for screen capture), model
keys (names only), the model, whether the store answers, and which sandbox exec runs in (the
config's runtime.sandbox, and whether bubblewrap is usable here). Always exits 0.

Options:
${COMMON}
  --store <url>       check that this PostgreSQL store answers`,
  serve: `Usage: clawtools serve [options]

Serves the installed tools over MCP on stdio (profile coding by default). Logs go to stderr.
Stops at end of input or on SIGTERM, SIGINT or SIGHUP; either way every process the tools
started (background exec sessions included) is killed before exit.

Options:
${COMMON}
  --max-message-mb <n>    largest message accepted (default 64); a larger one gets a JSON-RPC
                          error naming the limit and the server keeps serving
  --max-result-chars <n>  text characters per tool result sent (default 200000); the rest is
                          cut with a notice saying how to page
  --otel                  export an OpenTelemetry span per tool call and the call-duration
                          metric over OTLP/HTTP (JSON) to $OTEL_EXPORTER_OTLP_ENDPOINT
                          (default http://localhost:4318)
  --http <port>           serve Streamable HTTP on this port instead of stdio (0: any free port)
  --host <addr>           address for --http (default 127.0.0.1); any non-loopback address
                          needs a token
  --token <token>         bearer token clients must send with --http (or $CLAWTOOLS_MCP_TOKEN)
  --allow-origin <origin> a browser origin (https://app.example.com) allowed to use --http
                          (comma-separated, repeatable; config "allowOrigins"); requests from any
                          other Origin get 403, requests without one are served; on loopback,
                          pages on localhost, 127.0.0.1 and [::1] (any port) are served too
  --session-idle-minutes <n>
                          close a client's session after n minutes without a request
                          (default 30; config "sessionIdleMinutes")
  --max-sessions <n>      live client sessions at most (default 100; config "maxSessions"); a new
                          client past it gets 503 naming the limit
  --gateway <ws-url>      an OpenClaw Gateway (ws://HOST:PORT) that backs the nodes tool: its
                          paired nodes, pairing and node.invoke; the other sections stay
                          embedded, and serve says which at start. Unreachable or refused: the
                          start fails with the Gateway's reason
  --gateway-token <t>     the Gateway's token (or $OPENCLAW_GATEWAY_TOKEN); the device key that
                          signs its challenge is kept in the state directory
  --store <url>           postgres://USER@HOST:PORT/DB: sessions, runs and cron jobs in PostgreSQL
                          (config "store"; password from the URL or PGPASSWORD), shared by every
                          serve on that database; default: embedded files under the state
                          directory. A database that cannot be reached fails the start
  --store-connections <n> the store's pool size per serve (default 4; config "storeConnections");
                          each serve also keeps a liveness and a LISTEN connection
  --agent-id <id>         the agent this serve acts as (default cli; config "agentId"): its
                          tools work in agent:<id>:main, and sub-agent caps count per session
  --root <name|path>      which of a client's roots is the workspace (default: the first);
                          not with --workspace
  --surface <direct|search|code>
                          what a host sees (config "surface"): direct, every tool up front
                          (default); search, OpenClaw's tool_search / tool_describe /
                          dispatch_action over the same catalog, policy and approvals;
                          code, OpenClaw's code mode: exec runs JavaScript in a QuickJS
                          sandbox that calls the catalog as typed functions, wait resumes

Without --workspace, a client that offers roots (MCP 2025-11-25) sets the workspace: its
first root (or --root's), followed when it announces roots/list_changed (with --http, per client). The protocol is
2026-07-28 for a client that opens with server/discover, 2025-11-25 (or older) with initialize.

With --http each MCP client gets its own agent session: its own background processes
(process list shows only its own), sub-agents and announces; its processes end with its session.`,
};
