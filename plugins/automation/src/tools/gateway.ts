import {
  type AgentTool,
  type AgentToolResult,
  jsonResult,
  type ToolContext,
  ToolAuthorizationError,
  ToolInputError,
} from "@clawtools/core";
import { maskCredentialUrls, registerSecrets, secretsInDocument } from "@clawtools/core/safety";
import {
  ConfigConflictError,
  type ConfigDocument,
  changedPaths,
  configHash,
  lookupSchema,
  mergePatch,
  REDACTED,
  redact,
  restoreRedacted,
} from "../gateway/config-doc.js";
import {
  type Action,
  gatewaySchema,
  NO_RESTART_HOOK,
  NO_UPDATER,
  PROTECTED_CONFIG_PATHS,
  RESTART_DISABLED,
  WRITES_DISABLED,
} from "./gateway-schema.js";

/** The app's restart hook (gateway restart). */
export type RestartHook = (request: {
  delayMs: number;
  reason?: string;
  note?: string;
  sessionKey?: string;
}) => void | Promise<void>;

/** The app's updater (gateway update.run). */
export type Updater = (request: { timeoutMs: number }) => Promise<unknown>;

export interface GatewayToolOptions {
  document: ConfigDocument;
  /** The configuration's JSON Schema (config.schema.lookup and write validation). */
  schema?: object;
  allowConfigWrites: boolean;
  allowRestart: boolean;
  restart?: RestartHook;
  updater?: Updater;
  protectedPaths?: readonly string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function createGatewayTool(
  ctx: ToolContext,
  options: GatewayToolOptions,
): AgentTool<typeof gatewaySchema> & { ownerOnly: true } {
  const protectedPaths = options.protectedPaths ?? PROTECTED_CONFIG_PATHS;
  const isProtected = (path: string) =>
    protectedPaths.some(
      (p) => path === p || path.startsWith(`${p}.`) || p.startsWith(`${path}.`) || path === "(root)",
    );

  async function write(action: "config.apply" | "config.patch", p: Record<string, unknown>) {
    if (!options.allowConfigWrites) throw new ToolAuthorizationError(WRITES_DISABLED(action));
    if (!options.schema)
      throw new ToolInputError(
        `gateway ${action} needs a configuration schema to validate against; none was supplied`,
      );
    const raw = typeof p.raw === "string" ? p.raw : "";
    if (!raw.trim()) throw new ToolInputError("raw required");
    const baseHash = typeof p.baseHash === "string" ? p.baseHash.trim() : "";
    if (!baseHash) throw new ToolInputError("baseHash required (take it from config.get)");
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw new ToolInputError(`raw must be valid JSON: ${(error as Error).message}`);
    }
    if (!isObject(parsed)) throw new ToolInputError("raw must be a JSON object");
    try {
      const { hash } = await options.document.write(
        baseHash,
        (current) =>
          action === "config.apply"
            ? (restoreRedacted(parsed, current) as Record<string, unknown>)
            : (mergePatch(current, restoreRedacted(parsed, current)) as Record<string, unknown>),
        (current, next) => {
          const touched = changedPaths(current, next).filter(isProtected);
          if (touched.length > 0)
            throw new ToolInputError(
              `gateway ${action} cannot change protected config paths: ${touched.join(", ")}`,
            );
          const issues = options.document.issues(next);
          if (issues.length > 0)
            throw new ToolInputError(
              `gateway ${action} refused: invalid configuration (nothing written)\n${issues.join("\n")}`,
            );
        },
      );
      return { ok: true as const, hash, path: options.document.path ?? null };
    } catch (error) {
      if (error instanceof ConfigConflictError) throw new ToolInputError(error.message);
      throw error;
    }
  }

  async function run(p: Record<string, unknown>): Promise<AgentToolResult<unknown>> {
    const action = p.action as Action;
    switch (action) {
      case "config.get": {
        const config = await options.document.read();
        // its credentials become secrets of the process; credential URLs (Slack, Discord
        // webhooks) are masked like keys, so a write that keeps the marker keeps them
        registerSecrets(secretsInDocument(config));
        const shown = maskCredentialUrls(redact(config), REDACTED);
        return jsonResult({
          ok: true,
          result: { config: shown, hash: configHash(config), path: options.document.path ?? null },
        });
      }
      case "config.schema.lookup": {
        const path = typeof p.path === "string" ? p.path.trim() : "";
        if (!path) throw new ToolInputError("path required");
        if (!options.schema)
          throw new ToolInputError("no configuration schema was supplied to the gateway tool");
        const schema = lookupSchema(options.schema, path);
        if (schema === undefined) throw new ToolInputError(`config path not found in schema: ${path}`);
        return jsonResult({ ok: true, result: { path, schema } });
      }
      case "config.apply":
      case "config.patch":
        return jsonResult(await write(action, p));
      case "restart": {
        if (!options.allowRestart) throw new ToolAuthorizationError(RESTART_DISABLED);
        if (!options.restart) throw new ToolInputError(NO_RESTART_HOOK);
        const delayMs = Math.min(
          Math.max(0, Math.floor(Number(p.delayMs ?? p.restartDelayMs ?? 0)) || 0),
          60_000,
        );
        const reason = typeof p.reason === "string" ? p.reason : undefined;
        const note = typeof p.note === "string" ? p.note : undefined;
        const sessionKey = typeof p.sessionKey === "string" ? p.sessionKey : ctx.sessionKey;
        await options.restart({
          delayMs,
          ...(reason ? { reason } : {}),
          ...(note ? { note } : {}),
          ...(sessionKey ? { sessionKey } : {}),
        });
        return jsonResult({ ok: true, delayMs, mode: "hook" });
      }
      case "update.run": {
        if (!options.updater) throw new ToolInputError(NO_UPDATER);
        const timeoutMs = Math.min(Math.max(1_000, Number(p.timeoutMs ?? 1_200_000)), 1_200_000);
        return jsonResult({ ok: true, result: await options.updater({ timeoutMs }) });
      }
      default:
        throw new ToolInputError(`Unknown action: ${String(action).slice(0, 40)}`);
    }
  }

  return {
    name: "gateway",
    label: "Gateway",
    description:
      "Read this app's configuration (config.get, config.schema.lookup path=…). config.apply / config.patch (raw JSON + baseHash from config.get), restart and update.run work only when the app enables them.",
    parameters: gatewaySchema,
    ownerOnly: true,
    async execute(_id, params) {
      return run(params as Record<string, unknown>);
    },
  };
}
