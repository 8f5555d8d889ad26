// Which model an ACP session offers and how to select one (stable config options or the older `models`).
import type { AcpConnection } from "./connection.js";

/** Sends a request unless the run is being stopped. */
export type Guard = <T>(send: () => Promise<T>) => Promise<T>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface ModelChoice {
  /** `session/set_config_option` (a `model` config option, stable ACP) or `session/set_model` (the older `models`). */
  method: "session/set_config_option" | "session/set_model";
  configId?: string;
  current?: string;
  available: string[];
}

/** The model choice a session offers: a config option of category `model`, else the older `models` field. */
function modelChoice(setup: unknown): ModelChoice | undefined {
  if (!isObject(setup)) return undefined;
  const option = Array.isArray(setup.configOptions)
    ? (setup.configOptions as unknown[]).find(
        (o): o is Record<string, unknown> =>
          isObject(o) && o.category === "model" && o.type === "select" && typeof o.id === "string",
      )
    : undefined;
  if (option) {
    const values: string[] = [];
    for (const entry of Array.isArray(option.options) ? (option.options as unknown[]) : []) {
      if (!isObject(entry)) continue;
      if (typeof entry.value === "string") values.push(entry.value);
      else if (Array.isArray(entry.options))
        for (const inner of entry.options as unknown[])
          if (isObject(inner) && typeof inner.value === "string") values.push(inner.value);
    }
    return {
      method: "session/set_config_option",
      configId: option.id as string,
      ...(typeof option.currentValue === "string" ? { current: option.currentValue } : {}),
      available: values,
    };
  }
  const models = isObject(setup.models) ? setup.models : undefined;
  if (!models || !Array.isArray(models.availableModels)) return undefined;
  return {
    method: "session/set_model",
    ...(typeof models.currentModelId === "string" ? { current: models.currentModelId } : {}),
    available: (models.availableModels as unknown[])
      .map((m) => (isObject(m) && typeof m.modelId === "string" ? m.modelId : undefined))
      .filter((m): m is string => m !== undefined),
  };
}

/** Applies a run's model when the agent offers it (`provider/id` or the bare id); fails otherwise. */
export async function selectModel(
  conn: AcpConnection,
  sessionId: string,
  model: string,
  setup: unknown,
  timeoutMs: number,
  guard: Guard,
): Promise<void> {
  const choice = modelChoice(setup);
  const available = choice?.available ?? [];
  const bare = model.includes("/") ? model.slice(model.indexOf("/") + 1) : model;
  const modelId = available.find((m) => m === model) ?? available.find((m) => m === bare);
  if (!choice || !modelId)
    throw new Error(
      available.length === 0
        ? `the ACP agent does not offer a model choice, so model "${model}" cannot be applied`
        : `the ACP agent does not offer model "${model}" (available: ${available.join(", ")})`,
    );
  if (choice.current === modelId) return;
  await guard(() =>
    conn.request(
      choice.method,
      choice.method === "session/set_config_option"
        ? { sessionId, configId: choice.configId, value: modelId }
        : { sessionId, modelId },
      timeoutMs,
    ),
  );
}
