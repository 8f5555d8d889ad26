import { ToolInputError } from "@clawtools/core";
import { closestLinesHint, currentContentsHint } from "./hints.js";
import { countOccurrences, fuzzyNormalize, fuzzyWithMap } from "./normalize.js";

export interface Edit {
  oldText: string;
  newText: string;
}

interface Match {
  index: number;
  start: number;
  end: number;
  newText: string;
}

/** Not found: pi's sentence, then the closest lines and the current contents (OpenClaw's recovery). */
const notFound = (path: string, i: number, n: number, content: string, oldText: string) =>
  `${
    n === 1
      ? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
      : `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`
  }${closestLinesHint(content, oldText)}${currentContentsHint(content)}`;

/** The edits would leave the file as it is: a normal answer for the tool, not a failure. */
export class EditNoChangeError extends ToolInputError {
  constructor(message: string) {
    super(message);
    this.name = "EditNoChangeError";
  }
}

const duplicate = (path: string, i: number, n: number, count: number) =>
  n === 1
    ? `Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
    : `Found ${count} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`;

const noChange = (path: string, n: number) =>
  n === 1
    ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
    : `No changes made to ${path}. The replacements produced identical content.`;

/**
 * Applies every edit to LF-normalised `content`, each matched against the original (not the
 * result of earlier edits): exact first, then pi's fuzzy space. Fuzzy matches are spliced into
 * the original text, so lines outside the matched regions are kept byte for byte.
 */
export function applyEdits(content: string, edits: Edit[], path: string): string {
  const n = edits.length;
  let fuzzy: ReturnType<typeof fuzzyWithMap> | undefined;
  const matches: Match[] = edits.map((edit, i) => {
    if (!edit.oldText) {
      throw new ToolInputError(
        n === 1
          ? `oldText must not be empty in ${path}.`
          : `edits[${i}].oldText must not be empty in ${path}.`,
      );
    }
    const exact = countOccurrences(content, edit.oldText);
    if (exact > 1) throw new ToolInputError(duplicate(path, i, n, exact));
    if (exact === 1) {
      const start = content.indexOf(edit.oldText);
      return { index: i, start, end: start + edit.oldText.length, newText: edit.newText };
    }
    fuzzy ??= fuzzyWithMap(content);
    const needle = fuzzyNormalize(edit.oldText);
    const count = countOccurrences(fuzzy.fuzzy, needle);
    if (count === 0) throw new ToolInputError(notFound(path, i, n, content, edit.oldText));
    if (count > 1) throw new ToolInputError(duplicate(path, i, n, count));
    const at = fuzzy.fuzzy.indexOf(needle);
    const start = fuzzy.map[at]!;
    const end = fuzzy.ends[at + needle.length - 1]!;
    return { index: i, start, end, newText: edit.newText };
  });
  const sorted = [...matches].sort((a, b) => a.start - b.start);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k - 1]!.end > sorted[k]!.start) {
      throw new ToolInputError(
        `edits[${sorted[k - 1]!.index}] and edits[${sorted[k]!.index}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  let out = content;
  for (const m of sorted.reverse()) out = out.slice(0, m.start) + m.newText + out.slice(m.end);
  if (out === content) throw new EditNoChangeError(noChange(path, n));
  return out;
}
