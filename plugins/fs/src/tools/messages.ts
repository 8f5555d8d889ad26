import { ToolInputError } from "@clawtools/core";

/** Longest path a tool accepts (Linux PATH_MAX); longer input is refused before any file access. */
export const MAX_PATH_CHARS = 4096;

/** At most `max` characters of model input for an error message, saying how long it really was. */
export function clip(input: string, max = 120): string {
  return input.length <= max ? input : `${input.slice(0, max)}… (${input.length} characters)`;
}

/** Refuses an oversized path up front, so no error downstream can echo a megabyte back. */
export function checkPathArg(name: string, value: string | undefined): void {
  if (typeof value === "string" && value.length > MAX_PATH_CHARS)
    throw new ToolInputError(
      `${name} is too long (${value.length} characters; the limit is ${MAX_PATH_CHARS}): ${clip(value, 80)}`,
    );
}
