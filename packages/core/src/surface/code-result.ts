import type { CodeSandboxOutput } from "./code-sandbox.js";

/** OpenClaw 9.6's marker where output or a value was cut to the output limit. */
export const TRUNCATION_GUIDANCE = "Output truncated; rerun with narrower args.";

export type Truncated = { truncated: true; omittedBytes: number; guidance: string; prefix?: string };

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

function utf8Prefix(text: string, max: number): string {
  if (max <= 0) return "";
  let end = Math.min(text.length, max);
  while (end > 0 && bytes(text.slice(0, end)) > max) end = Math.floor(end * 0.9);
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/**
 * The output a run emitted, delivered incrementally: each result shows what came since the
 * last one. What the sandbox left out past the output limit shows as one truncation marker.
 */
export class RunOutput {
  private entries: unknown[] = [];
  private omittedBytes = 0;

  append(output: CodeSandboxOutput) {
    this.entries.push(...output.entries);
    this.omittedBytes += output.omittedBytes;
  }

  take(): unknown[] {
    const taken = this.entries.splice(0);
    if (this.omittedBytes > 0)
      taken.push({ truncated: true, omittedBytes: this.omittedBytes, guidance: TRUNCATION_GUIDANCE });
    this.omittedBytes = 0;
    return taken;
  }
}

/**
 * The final value within what the output limit leaves after this result's output (at least
 * half of it): whole when it fits, else a marker with the JSON prefix that fits.
 */
export function fitValue(
  value: { json: string; originalBytes: number },
  output: unknown[],
  maxBytes: number,
): unknown {
  const used = bytes(JSON.stringify(output));
  const allowance = Math.max(Math.floor(maxBytes / 2), maxBytes - used);
  // the sandbox sends the whole JSON whenever it is within the limit
  if (value.originalBytes <= allowance) return JSON.parse(value.json);
  const prefix = utf8Prefix(value.json, allowance - 200);
  return {
    truncated: true,
    omittedBytes: value.originalBytes - bytes(prefix),
    guidance: TRUNCATION_GUIDANCE,
    prefix,
  } satisfies Truncated;
}

/** An error text within the output limit. */
export const fitError = (error: string, maxBytes: number) =>
  bytes(error) <= maxBytes ? error : `${utf8Prefix(error, maxBytes - 18)} [error truncated]`;
