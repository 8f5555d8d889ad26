import path from "node:path";
import { type FsBridge, ToolInputError } from "@clawtools/core";

// A path that does not exist as spelled is retried under the spellings a model cannot type
// (OpenClaw 9.6, sessions/tools/path-utils.ts): Unicode spaces as ASCII, the macOS screenshot
// narrow no-break space before AM/PM, straight and curly apostrophes, NFC and NFD. Only the last
// name varies. One match is read and said ("[Resolved filename: a -> b.]"); two are refused.

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** The other spellings of `abs`'s last name worth probing when `abs` itself is missing. */
export function readPathVariants(abs: string): string[] {
  const name = path.basename(abs);
  const parent = abs.slice(0, abs.length - name.length);
  const ascii = name.replace(UNICODE_SPACES, " ");
  const screenshot = ascii.replace(/ (?=(?:AM|PM)(?:\b|\.))/gi, "\u202f");
  const variants = new Set<string>();
  for (const spaced of [ascii, screenshot]) {
    const straight = spaced.replace(/[\u2018\u2019]/g, "'");
    const curly = spaced.replace(/['\u2018]/g, "\u2019");
    for (const quoted of [straight, curly]) {
      variants.add(`${parent}${quoted.normalize("NFC")}`);
      // macOS folds NFD itself; elsewhere it is another name
      if (process.platform !== "darwin") variants.add(`${parent}${quoted.normalize("NFD")}`);
    }
  }
  variants.delete(abs);
  return [...variants];
}

export interface ReadTarget {
  abs: string;
  /** Said before the answer when the file was found under another spelling. */
  note?: string;
}

/** `abs` when it exists (as anything), else its one existing variant; two are ambiguous. */
export async function resolveReadTarget(bridge: FsBridge, abs: string): Promise<ReadTarget> {
  const exists = (filePath: string) => bridge.stat({ filePath }).then(Boolean, () => false);
  if (await exists(abs)) return { abs };
  const matches: string[] = [];
  for (const candidate of readPathVariants(abs)) if (await exists(candidate)) matches.push(candidate);
  const name = path.basename(abs);
  if (matches.length > 1)
    throw new ToolInputError(
      `Read path is ambiguous: ${name} matches ${matches.map((m) => path.basename(m)).join(", ")}.`,
    );
  const match = matches[0];
  if (match === undefined) return { abs };
  return { abs: match, note: `[Resolved filename: ${name} -> ${path.basename(match)}.]` };
}
