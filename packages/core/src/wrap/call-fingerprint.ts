import { createHash } from "node:crypto";

// What the loop detector compares calls by: a digest of their arguments or outcome, and which calls are polls.

/** Key order never changes the digest of an object. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
    .join(",")}}`;
}
export const digest = (value: unknown) =>
  createHash("sha256").update(canonical(value)).digest("hex").slice(0, 32);

/** Polling calls: repeating them is expected, repeating them without progress is not. */
export function isPoll(toolName: string, params: Record<string, unknown>): boolean {
  return (
    toolName === "command_status" ||
    (toolName === "process" && (params.action === "poll" || params.action === "log"))
  );
}
