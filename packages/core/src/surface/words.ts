/**
 * Words for tool search: names and descriptions split into lower-case terms (camelCase,
 * snake_case and kebab-case split), common English words dropped, and a light stemmer so that
 * "scheduling" meets "schedule" and "files" meets "file". Lexical only; English only.
 */

const STOPWORDS = new Set(
  (
    "a an and are as at be by can do does for from get give has have how i in into is it its me my " +
    "need of on or please so some that the their them then there these this to use using want was " +
    "we what when where which who will with you your"
  ).split(" "),
);

/** Splits on anything that is not a letter or digit, then on case changes and letter/digit runs. */
const WORD_PARTS = /\p{Lu}+(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+/gu;

export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!chunk) continue;
    const parts = chunk.match(WORD_PARTS);
    if (!parts) continue;
    for (const part of parts) words.push(part.toLowerCase());
  }
  return words;
}

/** Suffixes stripped, longest first; a stem keeps at least three letters. */
const SUFFIXES = [
  "ations",
  "ation",
  "ments",
  "ment",
  "ings",
  "ing",
  "ies",
  "ied",
  "ers",
  "er",
  "ed",
  "es",
  "ly",
  "s",
];
/** Words ending in s that are not plurals. */
const KEEP_S = new Set([
  "status",
  "process",
  "access",
  "class",
  "alias",
  "canvas",
  "address",
  "news",
  "this",
  "is",
  "as",
  "was",
  "has",
  "does",
  "its",
  "always",
]);

export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("s") && KEEP_S.has(word)) return word;
  let base = word;
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    base = word.slice(0, -suffix.length);
    if (suffix === "ies" || suffix === "ied") base = `${base}y`;
    // "running" → "run", "stopped" → "stop": a doubled final consonant is undoubled
    else if (
      (suffix === "ing" || suffix === "ed" || suffix === "er") &&
      /([b-df-hj-np-tv-z])\1$/.test(base) &&
      !/(ll|ss|zz)$/.test(base)
    )
      base = base.slice(0, -1);
    break;
  }
  // a final e goes on every form alike: "case" / "cases" / "cased", "schedule" / "scheduling"
  return base.endsWith("e") && base.length > 3 ? base.slice(0, -1) : base;
}

/** The indexed terms of a text: split, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) if (!STOPWORDS.has(word)) out.push(stem(word));
  return out;
}

/**
 * A small intent expansion: everyday words for what a tool does reach the tool's own words
 * ("look up the price" reaches "search the web"). Added at a lower weight than the query's words.
 */
const EXPANSIONS: ReadonlyArray<readonly [triggers: readonly string[], adds: readonly string[]]> = [
  [
    ["look", "lookup", "find", "discover", "locate"],
    ["search", "find"],
  ],
  [
    ["price", "news", "weather", "internet", "online", "google"],
    ["web", "search"],
  ],
  [
    ["download", "url", "page", "website", "site", "link"],
    ["fetch", "web", "url"],
  ],
  [
    ["run", "execute", "shell", "command", "terminal", "bash", "script"],
    ["exec", "command", "shell"],
  ],
  [
    ["open", "show", "view", "cat", "content"],
    ["read", "file"],
  ],
  [
    ["save", "create", "overwrite"],
    ["write", "file"],
  ],
  [
    ["change", "modify", "replace", "fix", "update"],
    ["edit", "replace"],
  ],
  [["remember", "recall", "note", "notes"], ["memory"]],
  [
    ["schedule", "later", "recurring", "timer", "reminder", "every", "daily"],
    ["cron", "schedule", "job"],
  ],
  [
    ["send", "notify", "chat", "post", "tell"],
    ["message", "send"],
  ],
  [["click", "screenshot", "navigate", "browse", "tab"], ["browser"]],
  [
    ["delegate", "agent", "subagent", "helper", "spawn"],
    ["session", "spawn", "agent"],
  ],
  [["picture", "photo", "image", "describe"], ["image"]],
  [
    ["speak", "voice", "audio", "say"],
    ["tts", "speech"],
  ],
  [
    ["directory", "folder", "list"],
    ["ls", "list", "directory"],
  ],
  [
    ["pattern", "regex", "text"],
    ["grep", "search"],
  ],
];
const EXPANSION_INDEX = new Map<string, string[]>();
for (const [triggers, adds] of EXPANSIONS)
  for (const trigger of triggers) {
    const key = stem(trigger);
    EXPANSION_INDEX.set(key, [...(EXPANSION_INDEX.get(key) ?? []), ...adds.map(stem)]);
  }

/** A query's terms (weight 1) and its expansions (a lower weight, never above a real term's). */
export function queryTerms(query: string): Map<string, number> {
  const weights = new Map<string, number>();
  const own = terms(query);
  for (const term of own) weights.set(term, 1);
  for (const term of own)
    for (const added of EXPANSION_INDEX.get(term) ?? [])
      if (!weights.has(added)) weights.set(added, EXPANSION_WEIGHT);
  return weights;
}

export const EXPANSION_WEIGHT = 0.35;
