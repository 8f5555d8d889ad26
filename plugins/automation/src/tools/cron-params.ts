import { ToolInputError } from "@clawtools/core";

// Reading the cron tool's parameters: ranges, flat job recovery, the context block, not-found text.

export type Params = Record<string, unknown>;

/** OpenClaw 9.6's answers for an id that names no job (`cron.get` keeps the older wording). */
export const notFoundText = (id: string, tool: string, action: string) =>
  tool === "automations" && action !== "get"
    ? `Automation not found: ${id}. List automations and retry with a current job id.`
    : `cron job not found: ${id}. List automations and retry with a current job id.`;

/** An optional integer parameter inside [min, max], refused (not clamped) outside it. */
export function intParam(p: Params, key: string, min: number, max: number): number | undefined {
  const value = p[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new ToolInputError(
      `${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`,
    );
  return value;
}

/** Top-level keys a model may send instead of `job` / `patch` (OpenClaw issue #11310). */
export const JOB_KEYS = [
  "name",
  "schedule",
  "sessionTarget",
  "wakeMode",
  "payload",
  "delivery",
  "enabled",
  "description",
  "deleteAfterRun",
  "agentId",
  "sessionKey",
  "failureAlert",
] as const;
export const PAYLOAD_KEYS = [
  "message",
  "text",
  "model",
  "fallbacks",
  "toolsAllow",
  "thinking",
  "timeoutSeconds",
  "lightContext",
  "allowUnsafeExternalContent",
] as const;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `job` / `patch`, or the same rebuilt from top-level keys when the model flattened it. */
export function recoverFlat(p: Params, key: "job" | "patch"): Record<string, unknown> | undefined {
  const given = p[key];
  if (isObject(given) && Object.keys(given).length > 0) return given;
  const out: Record<string, unknown> = {};
  for (const k of JOB_KEYS) if (p[k] !== undefined) out[k] = p[k];
  const payloadBits: Record<string, unknown> = {};
  // `text` is wake's own parameter; it joins a payload only when other job keys are present
  for (const k of PAYLOAD_KEYS) if (p[k] !== undefined) payloadBits[k] = p[k];
  if (
    Object.keys(payloadBits).length > 0 &&
    (Object.keys(out).length > 0 || payloadBits.message !== undefined)
  ) {
    out.payload = { ...payloadBits, ...(isObject(out.payload) ? out.payload : {}) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export const CONTEXT_LINE_MAX = 220;
export const CONTEXT_TOTAL_MAX = 700;

/** `\n\nRecent context:\n- User: …` from up to `count` recent user/assistant lines (≤220 chars each, ≤700 in all). */
export function contextBlock(messages: Array<{ role: string; content: unknown }>, count: number): string {
  const lines: string[] = [];
  let total = 0;
  const textOf = (content: unknown): string =>
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((block) => (isObject(block) && block.type === "text" ? String(block.text ?? "") : ""))
            .join(" ")
        : "";
  for (const message of messages.filter((m) => m.role === "user" || m.role === "assistant").slice(-count)) {
    let text = textOf(message.content).replace(/\s+/g, " ").trim();
    if (!text) continue;
    if (text.length > CONTEXT_LINE_MAX) text = `${text.slice(0, CONTEXT_LINE_MAX - 1)}…`;
    const line = `- ${message.role === "user" ? "User" : "Assistant"}: ${text}`;
    if (total + line.length > CONTEXT_TOTAL_MAX) break;
    lines.push(line);
    total += line.length;
  }
  return lines.length > 0 ? `\n\nRecent context:\n${lines.join("\n")}` : "";
}
