import type { ClawtoolsPlugin } from "@clawtools/core";
import { getCoreSections, TOOL_PROFILE_IDS } from "@clawtools/core/catalog";
import { PROVIDER_IDS } from "@clawtools/core/providers";

/** Where the published schema file is: `"$schema"` in a clawtools.json names it. */
export const BUNDLE_CONFIG_SCHEMA_FILE = "clawtools.schema.json";

/** The bundle's own keys (everything but the sections'), in the order the schema lists them. */
export const BUNDLE_KEYS = [
  "$schema",
  "workspace",
  "stateDir",
  "profile",
  "allow",
  "deny",
  "owner",
  "provider",
  "model",
  "acp",
  "allowPrivateNetwork",
  "plugins",
  "pluginReplaces",
  "mcpServers",
  "store",
  "storeConnections",
  "agentId",
  "gateway",
  "gatewayToken",
  "surface",
  "passEnv",
  "root",
  "allowOrigins",
  "sessionIdleMinutes",
  "maxSessions",
] as const;

const names = (description: string) => ({
  type: "array",
  items: { type: "string", minLength: 1 },
  description,
});

/**
 * The JSON Schema of a bundle's configuration: what `composeBundle(config)` takes and
 * `clawtools serve --config` reads. Its own keys plus one per section, each section's own
 * configuration schema (an open object for a section that is not installed or declares none).
 * The gateway tool answers `config.schema.lookup` from it and validates its writes against it.
 */
export function bundleConfigSchema(plugins: readonly ClawtoolsPlugin[]): Record<string, unknown> {
  const sections: Record<string, unknown> = {};
  for (const { id, label } of getCoreSections()) {
    const plugin = plugins.find((p) => (p.section ?? p.id) === id);
    sections[id] = plugin?.configSchema
      ? { ...(plugin.configSchema as object) }
      : {
          type: "object",
          description: `${label} section (${plugin ? "no declared schema" : "not installed"})`,
        };
  }
  return {
    type: "object",
    description: "clawtools bundle configuration: composeBundle(config), clawtools serve --config <file>",
    properties: {
      $schema: { type: "string", description: "this schema (clawtools/clawtools.schema.json), for editors" },
      workspace: {
        type: "string",
        minLength: 1,
        description:
          "the workspace root the tools work in (relative to the file; default: the current directory)",
      },
      stateDir: { type: "string", description: "Where derived state goes (relative to the file)" },
      profile: { type: "string", enum: [...TOOL_PROFILE_IDS], description: "the tool profile (--profile)" },
      allow: names("allow only these tools / groups (--allow)"),
      deny: names("never these tools / groups, in sub-agents and cron turns too (--deny)"),
      owner: { type: "boolean", description: "the caller is the owner: owner-only tools (--owner)" },
      provider: {
        type: "string",
        enum: [...PROVIDER_IDS],
        description: "schema normalisation for this provider (--provider)",
      },
      allowPrivateNetwork: {
        type: "boolean",
        description:
          "web_fetch and the browser may reach loopback and private addresses (--allow-private-network)",
      },
      pluginReplaces: names("sections a named OpenClaw plugin may replace (--plugin-replaces)"),
      gateway: {
        type: "string",
        pattern: "^wss?://",
        description:
          "an OpenClaw Gateway (ws://HOST:PORT) backing nodes, sessions, cron and messaging (--gateway)",
      },
      gatewayToken: {
        type: "string",
        description: "the Gateway's token (--gateway-token; default $OPENCLAW_GATEWAY_TOKEN)",
      },
      model: {
        type: "string",
        pattern: "^[^/\\s]+/\\S+$",
        description: "provider/model for sub-agents and image (the --model flag wins)",
      },
      acp: {
        type: "object",
        description: "An ACP agent started over stdio for sessions_spawn runtime=acp",
        properties: {
          command: { type: "string", minLength: 1 },
          args: { type: "array", items: { type: "string" } },
        },
        required: ["command"],
        additionalProperties: false,
      },
      plugins: {
        type: "array",
        items: {
          anyOf: [
            { type: "string", minLength: 1 },
            {
              type: "object",
              properties: {
                name: { type: "string", minLength: 1 },
                replaces: { type: "string", description: "a section an OpenClaw plugin replaces (memory)" },
                config: { type: "object", description: "the OpenClaw plugin's configuration" },
              },
              required: ["name"],
              additionalProperties: false,
            },
          ],
        },
        description:
          "clawtools or OpenClaw plugins to load: package names, paths from the file's directory, or {name, replaces, config}",
      },
      mcpServers: {
        type: "object",
        description:
          'MCP servers whose tools are served as <name>__<tool>: {"command", "args", "env"} or {"url", "headers"}',
        additionalProperties: { type: "object" },
      },
      store: {
        type: "string",
        pattern: "^postgres(ql)?://",
        description:
          "postgres://USER@HOST:PORT/DB: sessions, runs and cron jobs in PostgreSQL, shared by every serve on it (the --store flag wins; default: embedded files under stateDir)",
      },
      storeConnections: {
        type: "integer",
        minimum: 1,
        maximum: 100,
        description:
          "the PostgreSQL store's pool size per serve (default 4; each serve also keeps a liveness and a LISTEN connection); the --store-connections flag wins",
      },
      agentId: {
        type: "string",
        pattern: "^[a-z0-9][a-z0-9_-]{0,63}$",
        description:
          'the agent this serve acts as: its tools work in session agent:<agentId>:main, and sub-agent caps count per requester session (default "cli"); the --agent-id flag wins',
      },
      surface: {
        type: "string",
        enum: ["direct", "search", "code"],
        description:
          "which tools a host sees: direct (every tool up front, the default), search (OpenClaw's tool_search, tool_describe and dispatch_action over the whole catalog) or code (OpenClaw's code mode: exec runs JavaScript in a QuickJS sandbox that calls the catalog as typed functions, wait resumes a run; needs @clawtools/code-sandbox); serve's --surface flag wins",
      },
      passEnv: {
        type: "array",
        items: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
        description:
          "the bundle's own secret variables (provider keys, PGPASSWORD, the Gateway token) that exec, background processes and harnesses may still inherit",
      },
      root: {
        type: "string",
        minLength: 1,
        description:
          "serve over stdio without --workspace: the client root to work in, by name or path (the --root flag wins; default: the first)",
      },
      allowOrigins: {
        type: "array",
        items: { type: "string" },
        description: "serve --http: browser origins allowed (scheme://host[:port])",
      },
      sessionIdleMinutes: {
        type: "number",
        exclusiveMinimum: 0,
        description: "serve --http: minutes without a request before a client's session closes (default 30)",
      },
      maxSessions: {
        type: "integer",
        minimum: 1,
        description: "serve --http: live client sessions at most (default 100)",
      },
      ...sections,
    },
    additionalProperties: false,
  };
}
