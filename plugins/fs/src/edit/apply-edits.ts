import { ToolInputError } from "@clawtools/core";
import { followSpacing, followTypography } from "./convention.js";
import { findIndentationDrift, findSpacingDrift } from "./drift.js";
import { candidatesHint, closestLinesHint, currentContentsHint } from "./hints.js";
import { findTabDrift } from "./tabs.js";
import { fuzzyNormalize, fuzzyWithMap } from "./normalize.js";

export interface Edit {
  oldText: string;
  newText: string;
  /** Replace every occurrence instead of requiring a unique one (Claude Code's replace_all). */
  replaceAll?: boolean;
}

/** A difference between an edit's oldText and the file that was applied anyway. */
export interface AppliedDrift {
  edit: number;
  kind: "indentation" | "tabs" | "spacing";
  /** `4 spaces deeper`, `runs of spaces inside lines`. */
  detail: string;
}

export interface EditOutcome {
  content: string;
  /** Regions replaced (more than the edits when one replaces every occurrence). */
  replaced: number;
  drift: AppliedDrift[];
  /** The replaced regions of the original content, in order. */
  spans: Array<{ start: number; end: number }>;
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

const EDIT_NO_CHANGE_ERROR = Symbol.for("clawtools.error.EditNoChangeError");

/** The edits would leave the file as it is: a normal answer for the tool, not a failure. */
export class EditNoChangeError extends ToolInputError {
  static override readonly marker: symbol = EDIT_NO_CHANGE_ERROR;
  readonly [EDIT_NO_CHANGE_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_EDIT_NO_CHANGE";
  }
  constructor(message: string) {
    super(message);
    this.name = "EditNoChangeError";
  }
}

/** Whether `error` is an EditNoChangeError from any copy of this package (its brand, not `instanceof`). */
export function isEditNoChangeError(error: unknown): error is EditNoChangeError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[EDIT_NO_CHANGE_ERROR] === true
  );
}

type Span = { start: number; end: number };

/** pi's sentence, then every candidate's line numbers and a few of its lines. */
const duplicate = (path: string, i: number, n: number, content: string, spans: Span[]) =>
  `${
    n === 1
      ? `Found ${spans.length} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
      : `Found ${spans.length} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`
  }${candidatesHint(content, spans)}`;

const ambiguousDrift = (path: string, i: number, n: number, what: string, content: string, spans: Span[]) =>
  `Found ${spans.length} places in ${path} that match ${n === 1 ? "the text" : `edits[${i}]`} once ${what} is ignored. Please provide more context to make it unique.${candidatesHint(content, spans)}`;

const DRIFT_WHAT = { indentation: "indentation", tabs: "tabs against spaces", spacing: "spacing" } as const;

const noChange = (path: string, n: number) =>
  n === 1
    ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
    : `No changes made to ${path}. The replacements produced identical content.`;

function allOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    found.push(at);
  return found;
}

/**
 * Applies every edit to LF-normalised `content`, each matched against the original (not the
 * result of earlier edits): exact first, then pi's fuzzy space, then an unambiguous indentation
 * or spacing drift (reported in `drift`). Matches are spliced into the original text, so lines
 * outside the matched regions are kept byte for byte.
 */
export function applyEdits(content: string, edits: Edit[], path: string): EditOutcome {
  const n = edits.length;
  let fuzzy: ReturnType<typeof fuzzyWithMap> | undefined;
  const drift: AppliedDrift[] = [];
  const matches: Match[] = edits.flatMap((edit, i): Match[] => {
    if (!edit.oldText) {
      throw new ToolInputError(
        n === 1
          ? `oldText must not be empty in ${path}.`
          : `edits[${i}].oldText must not be empty in ${path}.`,
      );
    }
    const region = (start: number, end: number, newText = edit.newText) => ({
      index: i,
      start,
      end,
      newText,
    });
    const exact = allOccurrences(content, edit.oldText);
    if (exact.length > 1 && !edit.replaceAll)
      throw new ToolInputError(
        duplicate(
          path,
          i,
          n,
          content,
          exact.map((at) => ({ start: at, end: at + edit.oldText.length })),
        ),
      );
    if (exact.length > 0) return exact.map((at) => region(at, at + edit.oldText.length));
    fuzzy ??= fuzzyWithMap(content);
    const needle = fuzzyNormalize(edit.oldText);
    const loose = allOccurrences(fuzzy.fuzzy, needle);
    const looseSpans = loose.map((at) => ({
      start: fuzzy!.map[at]!,
      end: fuzzy!.ends[at + needle.length - 1]!,
    }));
    if (loose.length > 1 && !edit.replaceAll)
      throw new ToolInputError(duplicate(path, i, n, content, looseSpans));
    // matched once quotes, dashes or Unicode spellings were folded: newText follows the file's
    if (loose.length > 0)
      return looseSpans.map(({ start, end }) =>
        region(start, end, followTypography(edit.newText, edit.oldText, content.slice(start, end))),
      );
    for (const [kind, find] of [
      ["indentation", findIndentationDrift],
      ["tabs", findTabDrift],
      ["spacing", findSpacingDrift],
    ] as const) {
      const found = find(content, edit.oldText, edit.newText);
      if (!found) continue;
      if (found.regions.length > 1 && !edit.replaceAll)
        throw new ToolInputError(ambiguousDrift(path, i, n, DRIFT_WHAT[kind], content, found.regions));
      drift.push({ edit: i, kind, detail: found.description });
      return found.regions.map((r) => {
        if (kind !== "spacing") return region(r.start, r.end, r.newText);
        const matched = content.slice(r.start, r.end);
        return region(
          r.start,
          r.end,
          followSpacing(followTypography(r.newText, edit.oldText, matched), edit.oldText, matched),
        );
      });
    }
    throw new ToolInputError(notFound(path, i, n, content, edit.oldText));
  });
  const sorted = [...matches].sort((a, b) => a.start - b.start);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k - 1]!.end > sorted[k]!.start) {
      const [a, b] = [sorted[k - 1]!.index, sorted[k]!.index];
      throw new ToolInputError(
        a === b
          ? `Occurrences of edits[${a}] overlap in ${path}. Give a longer oldText.`
          : `edits[${a}] and edits[${b}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  let out = content;
  for (const m of sorted.reverse()) out = out.slice(0, m.start) + m.newText + out.slice(m.end);
  if (out === content) throw new EditNoChangeError(noChange(path, n));
  const spans = sorted.reverse().map(({ start, end }) => ({ start, end }));
  return { content: out, replaced: matches.length, drift, spans };
}
