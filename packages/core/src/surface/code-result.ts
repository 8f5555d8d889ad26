import { fitReference, type ResultReference } from "./code-reference.js";
import type { NotRetained } from "./code-results.js";
import type { CodeSandboxOutput } from "./code-sandbox.js";

/** OpenClaw 9.6's marker where output or a value was cut to the output limit. */
export const TRUNCATION_GUIDANCE = "Output truncated; rerun with narrower args.";

/** OpenClaw 9.6's guidance where a value too big for the result was saved instead. */
export const RETAINED_GUIDANCE =
  "Full result saved for this run; use results.load(reference.id) in a later exec.";

export type Truncated = { truncated: true; omittedBytes: number; guidance: string; prefix?: string };
export type Retained = { truncated: true; reference: ResultReference; guidance: string };

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
 * half of it): whole when it fits; else, for a whole object or array `retain` keeps, a marker
 * with its saved reference; else a marker with the JSON prefix that fits (and, when it could
 * not be kept, why).
 */
export function fitValue(
  value: { json: string; originalBytes: number },
  output: unknown[],
  maxBytes: number,
  retain?: (json: string) => ResultReference | NotRetained,
): unknown {
  const used = bytes(JSON.stringify(output));
  const allowance = Math.max(Math.floor(maxBytes / 2), maxBytes - used);
  // the sandbox sends the whole JSON whenever it is within the limit
  if (value.originalBytes <= allowance) return JSON.parse(value.json);
  const whole = bytes(value.json) === value.originalBytes && /^[[{]/.test(value.json);
  const kept = whole && retain ? retain(value.json) : undefined;
  if (kept && !("reason" in kept)) {
    const marker = { truncated: true, reference: kept, guidance: RETAINED_GUIDANCE } satisfies Retained;
    const fitted = fitReference(
      kept,
      allowance - (bytes(JSON.stringify({ ...marker, reference: null })) - 4),
    );
    if (fitted) return { ...marker, reference: fitted };
  }
  const prefix = utf8Prefix(value.json, allowance - 200);
  return {
    truncated: true,
    omittedBytes: value.originalBytes - bytes(prefix),
    guidance: kept && "reason" in kept ? `${kept.reason} ${TRUNCATION_GUIDANCE}` : TRUNCATION_GUIDANCE,
    prefix,
  } satisfies Truncated;
}

/** An error text within the output limit. */
export const fitError = (error: string, maxBytes: number) =>
  bytes(error) <= maxBytes ? error : `${utf8Prefix(error, maxBytes - 18)} [error truncated]`;
