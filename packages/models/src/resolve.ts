import { ClawtoolsError } from "@clawtools/core";
import { registerSecret } from "@clawtools/core/safety";
import { type Api, getModels, type KnownProvider, type Model } from "@mariozechner/pi-ai";
import {
  envStem,
  KNOWN_PROVIDERS,
  knownProvider,
  providerKeyVariables,
  WIRE_APIS,
  type WireApi,
} from "./providers.js";

export type { WireApi } from "./providers.js";

export interface ModelSpec {
  /** `provider/model`, e.g. `openai/gpt-4o-mini`, `anthropic/claude-sonnet-4-5`, `google/gemini-2.5-flash`. */
  model: string;
  /** Overrides the wire format (default: the provider's). */
  api?: WireApi;
  /** An endpoint of the user's own for this spec's provider. */
  baseUrl?: string;
  /** The key for this spec's provider (sent to its endpoint, or to `baseUrl`). */
  apiKey?: string;
  /** Whether the model takes images (default true for a model pi-ai does not list). */
  vision?: boolean;
}

export interface ResolvedModel {
  model: Model<Api>;
  /** The key to send; undefined when none is configured (an endpoint of the user's own). */
  apiKey: string | undefined;
  /** `provider/model`, for results. */
  label: string;
}

const MODEL_CONFIG_ERROR = Symbol.for("clawtools.error.ModelConfigError");

/** A spec that cannot be used; the message names what to set. */
export class ModelConfigError extends ClawtoolsError {
  static override readonly marker: symbol = MODEL_CONFIG_ERROR;
  readonly [MODEL_CONFIG_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_MODEL_CONFIG";
  }
  override name = "ModelConfigError";
}

/** Whether `error` is a ModelConfigError from any copy of this package (its brand, not `instanceof`). */
export function isModelConfigError(error: unknown): error is ModelConfigError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[MODEL_CONFIG_ERROR] === true
  );
}

/** `provider/model` split at the first slash; throws ModelConfigError for anything else. */
export function parseModelName(name: string): { provider: string; id: string } {
  const slash = name.indexOf("/");
  if (slash <= 0 || slash === name.length - 1)
    throw new ModelConfigError(`model must be "provider/model" (got "${name.slice(0, 80)}")`);
  return { provider: name.slice(0, slash), id: name.slice(slash + 1) };
}

function knownModel(provider: string, id: string): Model<Api> | undefined {
  try {
    return (getModels(provider as KnownProvider) as Model<Api>[]).find((m) => m.id === id);
  } catch {
    return undefined;
  }
}

const isWireApi = (api: string): api is WireApi => (WIRE_APIS as readonly string[]).includes(api);
// pi-ai lists some endpoints as templates ({CLOUDFLARE_ACCOUNT_ID}); those need a base URL of one's own
const concrete = (url: string | undefined) => (url && /^https:\/\/[^{}]+$/.test(url) ? url : undefined);

const registered = new Set<string>();
/** A key becomes a secret of the process: redacted from every result, error and log. */
function remember(key: string | undefined): void {
  if (!key || registered.has(key)) return;
  registered.add(key);
  registerSecret(key);
}

/** Registers every provider key in `env` (OPENAI_API_KEY, XAI_API_KEY, …) as a secret of the process. */
export function registerProviderKeys(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of providerKeyVariables()) remember(env[name]);
}

/**
 * Turns `provider/model` into a pi-ai model (the provider library every clawtools model call
 * goes through) with its endpoint and key. A provider's key goes only to that provider: the
 * spec's own `apiKey`/`baseUrl` first, then the provider's own variables (`XAI_API_KEY`,
 * `XAI_BASE_URL`, …), then its public endpoint. A provider without a key (and without an
 * endpoint of the user's own) is refused, naming the variable to set; a provider clawtools does
 * not know needs a base URL (`<PROVIDER>_BASE_URL`, key from `<PROVIDER>_API_KEY`).
 */
export function resolveModel(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env): ResolvedModel {
  const { provider, id } = parseModelName(spec.model);
  const label = `${provider}/${id}`;
  const table = knownProvider(provider);
  const known = knownModel(provider, id);
  // a provider pi-ai lists but clawtools' table does not: its models' own endpoint, if concrete
  const listed = !table && known && isWireApi(known.api) ? known : undefined;
  const stem = envStem(provider);
  const keyEnv = table?.keyEnv ?? [`${stem}_API_KEY`];
  const baseEnv = table?.baseEnv ?? `${stem}_BASE_URL`;
  const api: WireApi = spec.api ?? table?.api ?? (listed?.api as WireApi | undefined) ?? "openai-completions";

  const ownBase = spec.baseUrl || env[baseEnv] || undefined;
  const publicBase =
    (known && known.api === api ? concrete(known.baseUrl) : undefined) ??
    table?.baseUrl ??
    concrete(listed?.baseUrl);
  const baseUrl = ownBase ?? publicBase;
  if (!baseUrl)
    throw new ModelConfigError(
      `${label}: no endpoint known for provider "${provider}": set ${baseEnv} to its OpenAI-compatible endpoint (and ${keyEnv[0]} if it needs a key), or use one of ${KNOWN_PROVIDERS.join(", ")}`,
    );
  const keyVar = keyEnv.find((k) => env[k]);
  const apiKey = spec.apiKey || (keyVar ? env[keyVar] : undefined) || undefined;
  // a provider's public endpoint always needs its own key: never fall back to another's
  if (!apiKey && !ownBase)
    throw new ModelConfigError(
      `${label}: no API key for provider "${provider}": set ${keyEnv.join(" or ")} (or ${baseEnv} for an endpoint of your own)`,
    );
  remember(apiKey);
  registerProviderKeys(env);

  const model: Model<Api> = {
    id,
    name: known?.name ?? id,
    api,
    provider,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    reasoning: known?.reasoning ?? false,
    input: known?.input ?? (spec.vision === false ? ["text"] : ["text", "image"]),
    cost: known?.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: known?.contextWindow ?? 128_000,
    maxTokens: known?.maxTokens ?? 8_192,
  };
  return { model, apiKey, label };
}

/**
 * The spec for another model name: the key, endpoint and wire format configured for one
 * provider stay with that provider, so a model naming another provider (a tool argument such as
 * `xai/grok-2`) gets its own provider's key and endpoint, never this one's.
 */
export function withModel(spec: ModelSpec, model: string): ModelSpec {
  const next = parseModelName(model);
  const current = parseModelName(spec.model);
  if (next.provider === current.provider) return { ...spec, model };
  return { model, ...(spec.vision !== undefined ? { vision: spec.vision } : {}) };
}
