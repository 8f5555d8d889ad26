import { statSync } from "node:fs";
import path from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { TOOL_PROFILE_IDS } from "@clawtools/core/catalog";
import { PROVIDER_IDS } from "@clawtools/core/providers";
import { TOOL_SURFACES, type ToolSurface } from "@clawtools/core/surface";
import { normalizeOrigin } from "@clawtools/mcp/origin";
import { checkGatewayUrl, checkStoreUrl } from "clawtools/compose";
import { parseArgsProblem } from "./option-hint.js";
import type { CommandName } from "./usage.js";
import { asUsageError, UsageError } from "./usage-error.js";

export interface CommonOptions {
  workspace: string;
  profile?: string;
  allow?: string[];
  deny?: string[];
  owner: boolean;
  /** A provider id (`google` is taken as `gemini`). */
  provider?: string;
  help: boolean;
  json: boolean;
  strict: boolean;
  args?: string;
  argsFile?: string;
  /** `--config <file>`: a JSON file shaped like `ctx.config` plus `stateDir`. */
  config?: string;
  stateDir?: string;
  allowPrivateNetwork: boolean;
  /** `--model provider/model`: sub-agents run on it (sessions), and image uses it unless configured. */
  model?: string;
  /** `--nodes local`: this machine as a node (the nodes tool). */
  nodes?: "local";
  /** `--plugin <package or path>`: clawtools plugins to load and serve (repeatable). */
  plugin?: string[];
  /** serve: an OpenClaw Gateway (ws://HOST:PORT) that backs nodes. */
  gateway?: string;
  /** serve: the Gateway's token (else OPENCLAW_GATEWAY_TOKEN). */
  gatewayToken?: string;
  /** `--plugin-replaces <section>`: a named OpenClaw plugin whose tools collide with that section replaces it. */
  pluginReplaces?: string[];
  /** serve: HTTP instead of stdio, on this port. */
  http?: number;
  host?: string;
  token?: string;
  maxMessageMb?: number;
  maxResultChars?: number;
  /** serve --http: browser origins allowed besides requests without Origin. */
  allowOrigin?: string[];
  /** serve --http: minutes without a request before a client's session closes. */
  sessionIdleMinutes?: number;
  /** serve --http: live client sessions at most. */
  maxSessions?: number;
  /** serve: `postgres://USER@HOST:PORT/DB` for sessions, runs and cron (default: embedded files). */
  store?: string;
  /** serve `--store-connections N`: the PostgreSQL store's pool size. */
  storeConnections?: number;
  /** serve `--agent-id ID`: the agent this serve acts as (`agent:<id>:main`). */
  agentId?: string;
  /** `--workspace` was given: the MCP client's roots never move it. */
  workspaceGiven?: boolean;
  /** serve `--otel`: export every tools/call span over OTLP/HTTP. */
  otel?: boolean;
  /** serve `--root <name|path>`: which of the client's roots is the workspace (default: the first). */
  root?: string;
  /** serve `--surface direct|search|code`: every tool up front, OpenClaw's Tool Search controls, or its code mode. */
  surface?: ToolSurface;
  positionals: string[];
}

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON: Options = {
  workspace: { type: "string" },
  profile: { type: "string" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  owner: { type: "boolean", default: false },
  provider: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
  config: { type: "string" },
  "state-dir": { type: "string" },
  "allow-private-network": { type: "boolean", default: false },
  model: { type: "string" },
  nodes: { type: "string" },
  plugin: { type: "string", multiple: true },
  "plugin-replaces": { type: "string", multiple: true },
};

/** The options each command understands; anything else is a usage error. */
const PER_COMMAND: Record<CommandName, Options> = {
  list: { ...COMMON, json: { type: "boolean", default: false } },
  describe: COMMON,
  schema: { ...COMMON, strict: { type: "boolean", default: false } },
  call: {
    ...COMMON,
    json: { type: "boolean", default: false },
    args: { type: "string" },
    "args-file": { type: "string" },
  },
  doctor: { ...COMMON, store: { type: "string" } },
  serve: {
    ...COMMON,
    http: { type: "string" },
    host: { type: "string" },
    token: { type: "string" },
    "max-message-mb": { type: "string" },
    "max-result-chars": { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    "session-idle-minutes": { type: "string" },
    "max-sessions": { type: "string" },
    gateway: { type: "string" },
    "gateway-token": { type: "string" },
    store: { type: "string" },
    "store-connections": { type: "string" },
    "agent-id": { type: "string" },
    root: { type: "string" },
    surface: { type: "string" },
    otel: { type: "boolean", default: false },
  },
};

/** How many positional arguments each command takes, and what they are called. */
const POSITIONALS: Record<CommandName, string[]> = {
  list: [],
  describe: ["<tool>"],
  schema: [],
  call: ["<tool>"],
  serve: [],
  doctor: [],
};

/** Provider names accepted on the command line: the core ids plus spec/002's `google` (Gemini). */
export const PROVIDER_ALIASES: Readonly<Record<string, string>> = { google: "gemini" };

const splitList = (values: string[] | undefined) =>
  values
    ?.flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

function positiveNumber(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new UsageError(`${flag} must be a positive ${integer ? "integer" : "number"}, got "${raw}"`);
  return n;
}

/** The directory a relative path and the default workspace are taken from. */
export function invocationDir(env: NodeJS.ProcessEnv = process.env): string {
  // `pnpm clawtools …` (the checkout's root script) runs in the root: the user meant where they typed it
  if (env.npm_lifecycle_event === "clawtools" && env.INIT_CWD) return env.INIT_CWD;
  return process.cwd();
}

export function parseCommonOptions(argv: string[], command: CommandName = "list"): CommonOptions {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: PER_COMMAND[command] });
  } catch (error) {
    throw new UsageError(parseArgsProblem(error as NodeJS.ErrnoException, PER_COMMAND[command]));
  }
  const v = parsed.values as Record<string, unknown>;
  if (v.help) return { ...defaults(), help: true, positionals: parsed.positionals };
  const expected = POSITIONALS[command];
  if (parsed.positionals.length < expected.length)
    throw new UsageError(
      `${command} needs ${expected.join(" ")}: clawtools ${command} ${expected.join(" ")}`,
    );
  if (parsed.positionals.length > expected.length)
    throw new UsageError(`unexpected argument "${parsed.positionals[expected.length]}"`);
  const profile = v.profile as string | undefined;
  if (profile !== undefined && !(TOOL_PROFILE_IDS as readonly string[]).includes(profile))
    throw new UsageError(`unknown profile "${profile}" (expected ${TOOL_PROFILE_IDS.join(", ")})`);
  let provider = v.provider as string | undefined;
  if (provider !== undefined) {
    provider = PROVIDER_ALIASES[provider] ?? provider;
    if (!(PROVIDER_IDS as readonly string[]).includes(provider))
      throw new UsageError(
        `unknown provider "${v.provider}" (expected ${[...PROVIDER_IDS, ...Object.keys(PROVIDER_ALIASES)].join(", ")})`,
      );
  }
  const http = v.http as string | undefined;
  let port: number | undefined;
  if (http !== undefined) {
    port = Number(http);
    if (!/^\d+$/.test(http) || port > 65535)
      throw new UsageError(`--http needs a port number (0-65535), got "${http}"`);
  }
  if (v.host !== undefined && http === undefined)
    throw new UsageError("--host only applies with --http <port>");
  for (const flag of ["token", "allow-origin", "session-idle-minutes", "max-sessions"])
    if (v[flag] !== undefined && http === undefined)
      throw new UsageError(`--${flag} only applies with --http <port>`);
  const allowOrigin = splitList(v["allow-origin"] as string[] | undefined);
  for (const origin of allowOrigin ?? []) {
    try {
      normalizeOrigin(origin);
    } catch (error) {
      throw new UsageError(`--allow-origin: ${(error as Error).message}`);
    }
  }
  const sessionIdleMinutes = positiveNumber(
    "--session-idle-minutes",
    v["session-idle-minutes"] as string | undefined,
    false,
  );
  const maxSessions = positiveNumber("--max-sessions", v["max-sessions"] as string | undefined, true);
  const gateway =
    v.gateway === undefined ? undefined : asUsageError(() => checkGatewayUrl(v.gateway as string));
  if (v["gateway-token"] !== undefined && gateway === undefined)
    throw new UsageError("--gateway-token only applies with --gateway ws://HOST:PORT");
  if (gateway !== undefined && v.nodes !== undefined)
    throw new UsageError("--nodes and --gateway both choose the node host: give one of them");
  const store = v.store === undefined ? undefined : asUsageError(() => checkStoreUrl(v.store, "--store"));
  const storeConnections = positiveNumber(
    "--store-connections",
    v["store-connections"] as string | undefined,
    true,
  );
  if (storeConnections !== undefined && storeConnections > 100)
    throw new UsageError(`--store-connections takes 1 to 100, got ${storeConnections}`);
  const agentId = v["agent-id"] as string | undefined;
  if (agentId !== undefined && !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(agentId))
    throw new UsageError(
      `--agent-id takes lower-case letters, digits, _ and - (at most 64, for example "ci-runner"), got "${agentId}"`,
    );
  const model = v.model as string | undefined;
  if (model !== undefined && !/^[^/\s]+\/\S+$/.test(model))
    throw new UsageError(`--model needs provider/model (for example openai/gpt-4o-mini), got "${model}"`);
  const nodes = v.nodes as string | undefined;
  if (nodes !== undefined && nodes !== "local")
    throw new UsageError(`--nodes takes "local" (this machine), got "${nodes}"`);
  const surface = v.surface as string | undefined;
  if (surface !== undefined && !(TOOL_SURFACES as readonly string[]).includes(surface))
    throw new UsageError(`--surface takes ${TOOL_SURFACES.join(" or ")}, got "${surface}"`);
  if (v.workspace !== undefined) checkWorkspace(v.workspace as string);
  const allow = splitList(v.allow as string[] | undefined);
  const deny = splitList(v.deny as string[] | undefined);
  const maxMessageMb = positiveNumber("--max-message-mb", v["max-message-mb"] as string | undefined, false);
  const maxResultChars = positiveNumber(
    "--max-result-chars",
    v["max-result-chars"] as string | undefined,
    true,
  );
  return {
    ...defaults(),
    workspace: (v.workspace as string | undefined) ?? invocationDir(),
    ...(profile ? { profile } : {}),
    ...(allow ? { allow } : {}),
    ...(deny ? { deny } : {}),
    owner: Boolean(v.owner),
    ...(provider ? { provider } : {}),
    json: Boolean(v.json),
    strict: Boolean(v.strict),
    ...(v.args !== undefined ? { args: v.args as string } : {}),
    ...(v["args-file"] !== undefined ? { argsFile: v["args-file"] as string } : {}),
    ...(v.config !== undefined ? { config: v.config as string } : {}),
    ...(v["state-dir"] !== undefined ? { stateDir: v["state-dir"] as string } : {}),
    allowPrivateNetwork: Boolean(v["allow-private-network"]),
    ...(model ? { model } : {}),
    ...(nodes ? { nodes: "local" as const } : {}),
    ...(v.plugin ? { plugin: v.plugin as string[] } : {}),
    ...(v["plugin-replaces"] ? { pluginReplaces: v["plugin-replaces"] as string[] } : {}),
    ...(port !== undefined ? { http: port } : {}),
    ...(v.host !== undefined ? { host: v.host as string } : {}),
    ...(v.token !== undefined ? { token: v.token as string } : {}),
    ...(maxMessageMb !== undefined ? { maxMessageMb } : {}),
    ...(maxResultChars !== undefined ? { maxResultChars } : {}),
    ...(allowOrigin ? { allowOrigin } : {}),
    ...(sessionIdleMinutes !== undefined ? { sessionIdleMinutes } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
    ...(gateway !== undefined ? { gateway } : {}),
    ...(v["gateway-token"] !== undefined ? { gatewayToken: v["gateway-token"] as string } : {}),
    ...(store !== undefined ? { store } : {}),
    ...(storeConnections !== undefined ? { storeConnections } : {}),
    ...(agentId !== undefined ? { agentId } : {}),
    ...(v.workspace !== undefined ? { workspaceGiven: true } : {}),
    ...(v.otel ? { otel: true } : {}),
    ...(v.root !== undefined ? { root: v.root as string } : {}),
    ...(surface !== undefined ? { surface: surface as ToolSurface } : {}),
    positionals: parsed.positionals,
  };
}

/** A workspace that is not there fails the start, not every call after it. */
function checkWorkspace(dir: string): void {
  const full = path.resolve(invocationDir(), dir);
  let isDir = false;
  try {
    isDir = statSync(full).isDirectory();
  } catch {
    throw new UsageError(
      `--workspace ${full} does not exist: create it (mkdir -p ${full}) or name an existing folder`,
    );
  }
  if (!isDir)
    throw new UsageError(`--workspace ${full} is a file, not a folder: name the folder the tools work in`);
}

function defaults(): CommonOptions {
  return {
    workspace: invocationDir(),
    owner: false,
    help: false,
    json: false,
    strict: false,
    allowPrivateNetwork: false,
    positionals: [],
  };
}
