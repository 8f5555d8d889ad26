// The context a command works in (workspace, validated config, state directory), apart from the toolset built on it.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import {
  redactSecrets,
  registerSecrets,
  resolveStateDir,
  secretsInDocument,
  type ToolContext,
} from "@clawtools/core";
import type { Clawtools } from "clawtools";
import { type CliConfig, loadConfig } from "./config.js";
import { type CommonOptions, invocationDir } from "./options.js";
import { UsageError } from "./usage.js";

export const warn = (message: string) => process.stderr.write(redactSecrets(`${message}\n`));

/** `--allow-private-network`: web_fetch and the browser may reach loopback and private addresses. */
function privateNetworkConfig(clawtools: Clawtools): Record<string, Record<string, unknown>> {
  const installed = new Set(clawtools.tools.plugins().map((p) => p.section ?? p.id));
  return {
    ...(installed.has("web") ? { web: { fetch: { allowPrivateNetwork: true } } } : {}),
    ...(installed.has("ui") ? { ui: { browser: { allowPrivateNetwork: true } } } : {}),
  };
}

/**
 * The context every command works in: the workspace, the `--config` sections (validated up front
 * against each installed plugin's schema) and the state directory (`--state-dir`, else the
 * file's `stateDir`, else one per workspace under the XDG state home).
 */
export function buildContext(options: CommonOptions, clawtools: Clawtools): ToolContext {
  return contextAndConfig(options, clawtools).context;
}

export function contextAndConfig(
  options: CommonOptions,
  clawtools: Clawtools,
): { context: ToolContext; config: CliConfig } {
  const here = invocationDir();
  const workspace = path.resolve(here, options.workspace);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(`workspace is not a directory: ${workspace}`);
  const config = loadConfig(
    options.config === undefined ? undefined : path.resolve(here, options.config),
    clawtools,
    {
      ...(options.allowPrivateNetwork ? privateNetworkConfig(clawtools) : {}),
      ...(options.nodes ? { nodes: { host: options.nodes } } : {}),
    },
  );
  // the configuration's credentials (tokens, keys, webhook URLs) are secrets of the process
  registerSecrets(secretsInDocument(config.sections));
  for (const warning of config.warnings) warn(warning);
  const explicit = options.stateDir === undefined ? config.stateDir : path.resolve(here, options.stateDir);
  const model = options.model ?? config.model;
  const context: ToolContext = {
    workspaceDir: workspace,
    agentId: "cli",
    // the MCP client is the agent's main session: sub-agents announce there, "main" names it
    sessionKey: "agent:cli:main",
    // an MCP host (or a terminal) is never woken by a message: it asks for sub-agent results
    laterResults: "pull",
    // `model` is app-wide (sub-agents, and image when media names none)
    config: { ...config.sections, ...(model ? { model } : {}), ...(config.acp ? { acp: config.acp } : {}) },
    stateDir: resolveStateDir({ workspaceDir: workspace, ...(explicit ? { stateDir: explicit } : {}) }),
  };
  return { context, config };
}
