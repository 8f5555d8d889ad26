/**
 * Characters that disguise an external-content marker, as data. Upstream source: OpenClaw
 * `src/security/external-content.ts` (release 2026.9.6: `MARKER_CHAR_FOLDS`, fullwidth Latin
 * letters, and `LLM_SPECIAL_TOKEN_PATTERN`); additions of ours are marked.
 */

/** Look-alike angle brackets, folded to `<` / `>` before markers are searched. */
export const MARKER_BRACKET_LOOKALIKES: Readonly<Record<string, "<" | ">">> = {
  "\uff1c": "<", // fullwidth less-than
  "\uff1e": ">",
  "\u2329": "<", // left-pointing angle bracket
  "\u232a": ">",
  "\u3008": "<", // CJK angle bracket
  "\u3009": ">",
  "\u300a": "<", // CJK double angle bracket
  "\u300b": ">",
  "\u2039": "<", // single guillemet
  "\u203a": ">",
  "\u00ab": "<", // double guillemet
  "\u00bb": ">",
  "\u27e8": "<", // mathematical angle bracket
  "\u27e9": ">",
  "\u27ea": "<", // mathematical double angle bracket
  "\u27eb": ">",
  "\u27ec": "<", // mathematical white tortoise shell bracket
  "\u27ed": ">",
  "\u27ee": "<", // mathematical flattened parenthesis
  "\u27ef": ">",
  "\u276c": "<", // medium angle bracket ornament
  "\u276d": ">",
  "\u276e": "<", // heavy angle quotation mark ornament
  "\u276f": ">",
  "\ufe64": "<", // small less-than
  "\ufe65": ">",
  "\u02c2": "<", // modifier letter left arrowhead
  "\u02c3": ">",
  // ours: more arrowheads and angle brackets of the same shapes
  "\u3010": "<", // CJK black lenticular bracket
  "\u3011": ">",
  "\u2770": "<", // heavy angle bracket ornament
  "\u2771": ">",
  "\u29fc": "<", // left-pointing curved angle bracket
  "\u29fd": ">",
  "\u1438": "<", // Canadian syllabics pa
  "\u1433": ">", // Canadian syllabics po
  "\u02f1": "<", // modifier letter low left arrowhead
  "\u02f2": ">",
};

/**
 * ours: Cyrillic and Greek capitals and small letters drawn like the Latin letters of the marker
 * words (Unicode confusables), folded before markers are searched.
 */
export const MARKER_LETTER_LOOKALIKES: Readonly<Record<string, string>> = {
  "\u0410": "A",
  "\u0412": "B",
  "\u0421": "C",
  "\u0415": "E",
  "\u041d": "H",
  "\u0406": "I",
  "\u041a": "K",
  "\u041c": "M",
  "\u041e": "O",
  "\u0420": "P",
  "\u0405": "S",
  "\u0422": "T",
  "\u0425": "X",
  "\u0430": "a",
  "\u0441": "c",
  "\u0435": "e",
  "\u043e": "o",
  "\u0440": "p",
  "\u0455": "s",
  "\u0445": "x",
  "\u0391": "A",
  "\u0392": "B",
  "\u0395": "E",
  "\u0397": "H",
  "\u0399": "I",
  "\u039a": "K",
  "\u039c": "M",
  "\u039d": "N",
  "\u039f": "O",
  "\u03a1": "P",
  "\u03a4": "T",
  "\u03a5": "Y",
  "\u03a7": "X",
  "\u03bf": "o",
};

/**
 * Characters a reader does not see, removed before markers are searched so that
 * `<<<EXT\u200bERNAL_UNTRUSTED_CONTENT>>>` is caught. OpenClaw: zero-width space, non-joiner,
 * joiner, word joiner, BOM, soft hyphen.
 */
export const MARKER_INVISIBLE_CHARACTERS: readonly string[] = [
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u00ad",
  // ours: direction marks and embeddings, invisible operators, Mongolian vowel separator,
  // combining grapheme joiner, Hangul fillers
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2061",
  "\u2062",
  "\u2063",
  "\u2064",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u180e",
  "\u034f",
  "\u115f",
  "\u1160",
  "\u3164",
  "\uffa0",
];

/**
 * Chat-template control tokens that could end the tool result inside a model's prompt; replaced
 * by `[REMOVED_SPECIAL_TOKEN]` (OpenClaw `LLM_SPECIAL_TOKEN_PATTERN`).
 */
export const MODEL_SPECIAL_TOKENS: readonly string[] = [
  "<|im_start|>",
  "<|im_end|>",
  "<|endoftext|>",
  "<|begin_of_text|>",
  "<|end_of_text|>",
  "<|start_header_id|>",
  "<|end_header_id|>",
  "<|eot_id|>",
  "<|python_tag|>",
  "<|eom_id|>",
  "[INST]",
  "[/INST]",
  "<<SYS>>",
  "<</SYS>>",
  "<s>",
  "</s>",
  "<|channel|>",
  "<|message|>",
  "<|return|>",
  "<|call|>",
  "<start_of_turn>",
  "<end_of_turn>",
];
/** Llama 3's numbered reserved tokens, `<|reserved_special_token_N|>`. */
export const MODEL_SPECIAL_TOKEN_PATTERN = /<\|reserved_special_token_\d+\|>/;
