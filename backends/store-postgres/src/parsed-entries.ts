import type { SessionEntry } from "@clawtools/core/contracts";
import { parseRow } from "./db.js";

/** How many parsed entries a store keeps, and the longest stored text it keeps one for. */
export const PARSED_ENTRIES_MAX = 1_024;
export const PARSED_ENTRY_MAX_CHARS = 4_096;

/**
 * The session entries this store has parsed, keyed by their stored text. It is no cache of the
 * database: every read still fetches each row's current text from the server, and an entry is
 * reused only when that text is byte for byte the text it was parsed from (a Map lookup: one hash
 * and one comparison of the text), so what a read returns is what the server sent in that very
 * round trip, never an older version. What it saves is the `JSON.parse` of a row that has not
 * changed since this process last read it (on a list page, most of the client's time).
 *
 * Each call returns a new object, so a caller that changes an entry changes nothing here. Only
 * flat entries (every value a string, number, boolean or null, as `SessionEntry` is) are kept: a
 * shallow copy of one is a full copy. Anything else is parsed every time. Bounded: when full, the
 * oldest text is let go first.
 */
export class ParsedEntries {
  private readonly byText = new Map<string, SessionEntry>();

  constructor(
    private readonly max = PARSED_ENTRIES_MAX,
    private readonly maxChars = PARSED_ENTRY_MAX_CHARS,
  ) {}

  get size(): number {
    return this.byText.size;
  }

  /** The entry `text` holds, as a new object: parsed, or copied from the one parsed from this very text. */
  parse(text: string, what: string): SessionEntry {
    const known = this.byText.get(text);
    if (known !== undefined) return { ...known };
    const entry = parseRow<SessionEntry>(text, what);
    if (text.length <= this.maxChars && isFlatObject(entry)) {
      if (this.byText.size >= this.max) this.byText.delete(this.byText.keys().next().value as string);
      this.byText.set(text, { ...entry });
    }
    return entry;
  }
}

/** A plain object whose values are all primitives (no nested object or array to share). */
function isFlatObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null) return false;
  }
  return true;
}
