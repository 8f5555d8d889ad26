import { getCoreSections } from "@clawtools/core";
import type { Clawtools } from "clawtools";

/**
 * The JSON Schema of the CLI's configuration (what `--config` reads): its own keys plus one per
 * section, each installed section's own configuration schema (an open object for a section that
 * is not installed or declares none). The gateway tool answers `config.schema.lookup` from it
 * and validates its writes against it.
 */
export function cliConfigSchema(clawtools: Clawtools): Record<string, unknown> {
  const plugins = clawtools.tools.plugins();
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
    description: "clawtools CLI configuration (clawtools serve --config <file>)",
    properties: {
      stateDir: { type: "string", description: "Where derived state goes (relative to the file)" },
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
      root: {
        type: "string",
        minLength: 1,
        description:
          "serve over stdio without --workspace: the client root to work in, by name or path (the --root flag wins; default: the first)",
      },
      surface: {
        type: "string",
        enum: ["direct", "search", "code"],
        description:
          "serve: which tools a host sees: direct (every tool up front, the default), search (OpenClaw's tool_search, tool_describe and dispatch_action over the whole catalog) or code (OpenClaw's code mode: exec runs JavaScript in a QuickJS sandbox that calls the catalog as typed functions, wait resumes a run); the --surface flag wins",
      },
      passEnv: {
        type: "array",
        items: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
        description:
          "serve's own secret variables (provider keys, PGPASSWORD, the Gateway token) that exec, background processes and harnesses may still inherit",
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
